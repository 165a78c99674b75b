package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * What every run event carries.
 *
 * @param seq   the run's sequence number, from 1 without gaps
 * @param at    when it happened
 * @param node  the node it concerns, or {@code null}
 * @param token the token it concerns, or {@code null}
 * @param data  the event's {@code data} object as it was written (kept whole so nothing is lost when it is stored)
 */
public record EventHeader(long seq, Instant at, String node, String token, JsonNode data) {

    public EventHeader {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(data, "data");
        if (seq < 1) {
            throw new MalformedRunEventException("Expected a run event seq >= 1, but found " + seq);
        }
    }

    /** This header, when it names both a node and a token (as node and token events must). */
    EventHeader requireNodeAndToken(String type) {
        if (node == null || token == null) {
            throw new MalformedRunEventException("Expected " + type + " (seq " + seq + ") to name a node and a token, "
                    + "but found node " + node + " and token " + token);
        }
        return this;
    }
}
