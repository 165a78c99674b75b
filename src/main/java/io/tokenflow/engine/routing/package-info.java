/**
 * Pure routing decisions: given the IR, a completed node and its output, which nodes receive tokens next, with which
 * ids and inputs. Deterministic, so a duplicated completion reproduces the same decision.
 */
package io.tokenflow.engine.routing;
