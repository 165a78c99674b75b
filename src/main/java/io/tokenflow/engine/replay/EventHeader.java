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
 * @param dataText the {@code data} object's JSON text exactly as it was written, when the event was read from text
 *              ({@link RunEvents#parse(String, tools.jackson.databind.ObjectMapper)}), else {@code null}. It spares writing {@code data} out
 *              again to store it, and is not part of an event's identity ({@link #equals}).
 */
public record EventHeader(long seq, Instant at, String node, String token, JsonNode data, String dataText) {

    public EventHeader {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(data, "data");
        if (seq < 1) {
            throw new MalformedRunEventException("Expected a run event seq >= 1, but found " + seq);
        }
    }

    public EventHeader(long seq, Instant at, String node, String token, JsonNode data) {
        this(seq, at, node, token, data, null);
    }

    /** The {@code data} object's JSON text: as written when known, else written out from {@link #data()}. */
    public String dataJson() {
        return dataText != null ? dataText : data.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EventHeader header && seq == header.seq && at.equals(header.at)
                && Objects.equals(node, header.node) && Objects.equals(token, header.token) && data.equals(header.data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(seq, at, node, token, data);
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
