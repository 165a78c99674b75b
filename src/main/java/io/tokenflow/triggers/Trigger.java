package io.tokenflow.triggers;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * One trigger as a compiled workflow version declares it (the compiler has checked it, so reading cannot fail).
 *
 * @param cron   the schedule ({@code null} for a webhook)
 * @param zone   the zone the schedule is read in (UTC by default)
 * @param missed {@code skip} (default) or {@code fire_once}
 * @param inputs each cron run's inputs (an empty object by default)
 * @param auth   a webhook's {@code secret} or {@code hmac} ({@code null} for cron)
 */
record Trigger(String id, String type, String cron, ZoneId zone, String missed, JsonNode inputs, String auth) {

    static final String CRON = "cron";
    static final String WEBHOOK = "webhook";
    static final String FIRE_ONCE = "fire_once";

    static List<Trigger> of(JsonNode dsl) {
        List<Trigger> triggers = new ArrayList<>();
        for (JsonNode trigger : dsl.path("triggers")) {
            triggers.add(new Trigger(trigger.get("id").asString(), trigger.get("type").asString(),
                    text(trigger, "cron"), ZoneId.of(trigger.path("time_zone").asString("UTC")),
                    trigger.path("missed").asString("skip"),
                    trigger.has("inputs") ? trigger.get("inputs") : JsonNodeFactory.instance.objectNode(),
                    text(trigger, "auth")));
        }
        return triggers;
    }

    static Optional<Trigger> find(List<Trigger> triggers, String id) {
        return triggers.stream().filter(trigger -> trigger.id().equals(id)).findFirst();
    }

    boolean isCron() {
        return CRON.equals(type);
    }

    private static String text(JsonNode node, String member) {
        return node.has(member) ? node.get(member).asString() : null;
    }
}
