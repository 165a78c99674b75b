package io.tokenflow.engine.replay;

/** A run event (or a list of them) that does not follow {@code docs/run-events.md}. */
public class MalformedRunEventException extends IllegalArgumentException {

    public MalformedRunEventException(String message) {
        super(message);
    }
}
