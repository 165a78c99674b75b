package io.tokenflow.engine.ir;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Fan-in: the node runs once, when a token from every one of {@code expected} has arrived; its input is the
 * dependencies' outputs merged by dependency id.
 */
public record IrJoin(@JsonProperty("wait_for_all") boolean waitForAll, List<String> expected) {

    public IrJoin {
        expected = List.copyOf(expected);
    }
}
