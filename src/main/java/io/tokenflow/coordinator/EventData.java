package io.tokenflow.coordinator;

/** Event data objects that Java hands to the Lua steps, as JSON text (docs/run-events.md). */
final class EventData {

    private EventData() {
    }

    static String tokenEmitted(Payloads payloads, String from, String parent, int iteration, boolean join) {
        return "{\"from\":" + (from == null ? "null" : payloads.quote(from)) + ",\"parent\":"
                + (parent == null ? "null" : payloads.quote(parent)) + ",\"iteration\":" + iteration + ",\"join\":"
                + join + "}";
    }
}
