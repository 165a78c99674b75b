/**
 * The executable plan compiled from a workflow (seed 003's IR): per node its dependencies, dependents, terminal flag
 * and branch/loop/join configuration. Immutable; the runtime's only input. Serialises to snake_case JSON.
 */
package io.tokenflow.engine.ir;
