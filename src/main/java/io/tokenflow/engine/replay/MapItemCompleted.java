package io.tokenflow.engine.replay;

/**
 * One element of a map completed (the token is the element's): its {@code output} (JSON, or a CAS reference object)
 * is the element's place in the node's output list, at {@code index}.
 */
public record MapItemCompleted(EventHeader header, int iteration, int index, String worker) implements MapEvent {

    static MapItemCompleted read(EventHeader header, EventJson data) {
        return new MapItemCompleted(header.requireNodeAndToken("map.item.completed"), data.iteration(),
                Math.toIntExact(data.requiredNumber("index")), data.text("worker"));
    }

    /** @param output the output as kept in the run's context: JSON text, or a reference object */
    public static String data(int iteration, int index, String output, String worker) {
        return new EventDataText().number("iteration", iteration).number("index", index).raw("output", output)
                .text("worker", worker).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.MAP_ITEM_COMPLETED;
    }
}
