package io.tokenflow.engine.replay;

/**
 * One hop of a run's path: a token emitted from a node (or from nowhere, for entry and join tokens) to a node.
 *
 * @param seq the {@code token.emitted} event
 */
public record PathStep(String from, String to, String token, long seq) {
}
