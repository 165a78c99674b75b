package io.tokenflow.engine.runs;

/**
 * A status move an event asked for that the transition table does not allow; it was not applied.
 *
 * @param subject what should have moved: a node execution ({@code node#iteration}) or {@code run}
 * @param seq     the event that asked for it
 */
public record IllegalMove(String subject, String from, String to, long seq) {

    public String describe() {
        return "Expected " + subject + " to be allowed to move from " + from + " to " + to + " (event " + seq
                + "), but the transition table forbids it";
    }
}
