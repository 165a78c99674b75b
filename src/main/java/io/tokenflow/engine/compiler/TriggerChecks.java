package io.tokenflow.engine.compiler;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;

import io.tokenflow.engine.conditions.JsonSchemas;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.SchemaErrors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Checks a workflow's {@code triggers} beyond their shape (the schema checks that): unique ids, a cron that parses
 * ({@link CronSyntax}), a known time zone, cron inputs valid against the workflow's {@code inputs}, and no member of
 * the other trigger type (a cron's {@code auth} or a webhook's {@code cron} would do nothing, so it is refused).
 */
final class TriggerChecks {

    private static final Set<String> CRON_ONLY = Set.of("cron", "time_zone", "missed", "inputs");
    private static final Set<String> WEBHOOK_ONLY = Set.of("auth");

    private final CronSyntax cron;
    // RE2 patterns, nothing fetched: the declared inputs are the user's schema (checked by the compiler first)
    private final JsonSchemas schemas = new JsonSchemas();
    private final Map<String, Schema> inputSchemas = new ConcurrentHashMap<>();

    TriggerChecks(CronSyntax cron) {
        this.cron = cron;
    }

    void check(JsonNode triggers, JsonNode inputs, Diagnostics diagnostics) {
        if (triggers == null) {
            return;
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < triggers.size(); i++) {
            JsonNode trigger = triggers.get(i);
            String pointer = "/triggers/" + i;
            String id = trigger.get("id").asString();
            if (!ids.add(id)) {
                diagnostics.error("duplicate-trigger", null, pointer + "/id", "Expected trigger ids to be unique, "
                        + "but '" + id + "' is used more than once");
            }
            boolean isCron = "cron".equals(trigger.get("type").asString());
            refuseMembers(trigger, pointer, isCron ? WEBHOOK_ONLY : CRON_ONLY, isCron ? "cron" : "webhook", diagnostics);
            if (isCron) {
                checkCron(trigger, pointer, inputs, diagnostics);
            } else if (!trigger.has("auth")) {
                invalid(diagnostics, pointer + "/auth", "Expected webhook trigger '" + id + "' to say how callers "
                        + "authenticate (auth: secret or hmac), but it has no auth");
            }
        }
    }

    private void checkCron(JsonNode trigger, String pointer, JsonNode inputs, Diagnostics diagnostics) {
        String id = trigger.get("id").asString();
        JsonNode expression = trigger.get("cron");
        if (expression == null) {
            invalid(diagnostics, pointer + "/cron", "Expected cron trigger '" + id + "' to have a cron schedule, "
                    + "but it has none");
        } else {
            cron.problem(expression.asString()).ifPresent(problem -> invalid(diagnostics, pointer + "/cron",
                    "Expected a cron schedule of six fields, seconds first ('0 0 2 * * *'), but '"
                            + expression.asString() + "' does not parse: " + problem));
        }
        JsonNode zone = trigger.get("time_zone");
        if (zone != null) {
            zoneProblem(zone.asString()).ifPresent(problem -> invalid(diagnostics, pointer + "/time_zone",
                    "Expected a time zone such as Europe/Berlin or UTC, but '" + zone.asString() + "' is not one: "
                            + problem));
        }
        JsonNode runInputs = trigger.has("inputs") ? trigger.get("inputs") : JsonNodeFactory.instance.objectNode();
        if (inputs != null && !inputs.isNull()) {
            Schema schema = inputSchemas.computeIfAbsent(inputs.toString(), text -> schemas.load(inputs));
            List<Error> errors = schema.validate(runInputs);
            for (Error error : errors) {
                invalid(diagnostics, pointer + "/inputs" + SchemaErrors.pointerOf(error), "Expected the trigger's "
                        + "inputs to match the workflow's inputs, but " + error.getMessage());
            }
        }
    }

    private static void refuseMembers(JsonNode trigger, String pointer, Set<String> members, String type,
                                      Diagnostics diagnostics) {
        for (String member : members.stream().sorted().toList()) {
            if (trigger.has(member)) {
                invalid(diagnostics, pointer + "/" + member, "Expected no '" + member + "' on a " + type
                        + " trigger, but it is set; it would do nothing there");
            }
        }
    }

    private static Optional<String> zoneProblem(String zone) {
        try {
            ZoneId.of(zone);
            return Optional.empty();
        } catch (DateTimeException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static void invalid(Diagnostics diagnostics, String pointer, String message) {
        diagnostics.error("invalid-trigger", null, pointer, message);
    }
}
