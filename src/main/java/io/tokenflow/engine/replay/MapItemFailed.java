package io.tokenflow.engine.replay;

/**
 * One element of a map failed with no retry left, and its node's {@code on_failure} is a path: the map goes on, and
 * the element's place in the output list holds {@code {"error": …}}.
 */
public record MapItemFailed(EventHeader header, int iteration, int index, String worker) implements MapEvent {

    static MapItemFailed read(EventHeader header, EventJson data) {
        return new MapItemFailed(header.requireNodeAndToken("map.item.failed"), data.iteration(),
                Math.toIntExact(data.requiredNumber("index")), data.text("worker"));
    }

    /** @param error the error object (JSON text) */
    public static String data(int iteration, int index, String error, String worker) {
        return new EventDataText().number("iteration", iteration).number("index", index).raw("error", error)
                .text("worker", worker).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.MAP_ITEM_FAILED;
    }
}
