package io.tokenflow.waits;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

import io.tokenflow.engine.replay.NodeWaiting;

/**
 * A token the engine holds, as kept in its run's waits hash (field: the token id) by {@code hold-wait.lua}.
 *
 * @param kind     {@link NodeWaiting#TIMER}, {@link NodeWaiting#SIGNAL} or {@link NodeWaiting#CHILD}
 * @param input    the node's input as JSON text, or {@code null} when it travels by reference
 * @param inputRef the CAS reference of a large input, else {@code null}
 * @param until    when the timer fires, the signal wait times out or a child run is looked at again (epoch ms), or
 *                 {@code null}
 * @param signal   the signal's name (a signal wait), else {@code null}
 * @param key      the signal's correlation key (a signal wait), else {@code null}
 * @param child    the child run a workflow node waits for, else {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
record Wait(String node, String kind, int iteration, String input, String inputRef, Long until, String signal,
            String key, UUID child) {

    boolean isSignal() {
        return NodeWaiting.SIGNAL.equals(kind);
    }

    boolean isChild() {
        return NodeWaiting.CHILD.equals(kind);
    }

    /** The same wait, looked at again at {@code next}. */
    Wait until(long next) {
        return new Wait(node, kind, iteration, input, inputRef, next, signal, key, child);
    }

    /** The member naming the token in the due times and the signal index: {@code <run> <token>}. */
    static String member(UUID run, String token) {
        return run + " " + token;
    }
}
