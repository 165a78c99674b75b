/** Node and run statuses with their legal moves as tables, and the state of one node execution. */
package io.tokenflow.engine.runs;
