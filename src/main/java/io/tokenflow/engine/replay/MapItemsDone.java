package io.tokenflow.engine.replay;

/**
 * Every element of a map has its outcome (written by {@code map-item.lua} with the last one; the token is the map
 * node's). The supervisor, once it has logged this event and so every element's before it, completes the node with
 * the list of outputs in element order.
 */
public record MapItemsDone(EventHeader header, int iteration, int completed, int failed) implements MapEvent {

    static MapItemsDone read(EventHeader header, EventJson data) {
        return new MapItemsDone(header.requireNodeAndToken("map.items.done"), data.iteration(),
                Math.toIntExact(data.requiredNumber("completed")), Math.toIntExact(data.requiredNumber("failed")));
    }

    @Override
    public RunEventType type() {
        return RunEventType.MAP_ITEMS_DONE;
    }
}
