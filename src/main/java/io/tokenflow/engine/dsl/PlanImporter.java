package io.tokenflow.engine.dsl;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts seed 004's sequential plan ({@code start_step}, {@code steps.<id>.next_step}, {@code input_mapping})
 * into the graph DSL: each step becomes an {@code http_agent} node calling its {@code agent_name}, each
 * {@code next_step} an edge, and {@code ${<step>.output.x}} becomes {@code ${nodes.<step>.output.x}}.
 */
public final class PlanImporter {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern STEP_REFERENCE = Pattern.compile("\\$\\{\\s*(?!workflow\\.|nodes\\.)([A-Za-z_][A-Za-z0-9_-]*)\\.output");
    private static final Pattern WORKFLOW_INPUT = Pattern.compile("\\$\\{\\s*workflow\\.input\\.([A-Za-z0-9_-]+)");

    private PlanImporter() {
    }

    /** Whether a document is a seed-004 plan rather than the graph DSL. */
    public static boolean isPlan(JsonNode document) {
        return document != null && document.isObject() && document.has("start_step") && !document.has("nodes");
    }

    public static ObjectNode toWorkflow(JsonNode plan, Diagnostics diagnostics) {
        JsonNode steps = plan.get("steps");
        if (steps == null || !steps.isObject() || steps.isEmpty()) {
            diagnostics.error("plan", null, "/steps", "Expected 'steps' to be an object of steps by id, but it is "
                    + (steps == null ? "missing" : "not one"));
            return JSON.objectNode();
        }
        String start = plan.path("start_step").asString("");
        if (!steps.has(start)) {
            diagnostics.error("plan", null, "/start_step", "Expected start_step to name one of the steps "
                    + steps.propertyNames() + ", but found '" + start + "'");
        }
        ObjectNode workflow = JSON.objectNode();
        workflow.put("name", plan.path("name").asString(plan.path("workflow_id").asString("imported-plan")));
        workflow.put("description", "Imported from sequential plan " + plan.path("workflow_id").asString("")
                + " version " + plan.path("version").asString(""));
        Set<String> inputs = new LinkedHashSet<>();
        ArrayNode nodes = workflow.putArray("nodes");
        ArrayNode edges = workflow.putArray("edges");
        for (Map.Entry<String, JsonNode> step : steps.properties()) {
            nodes.add(toNode(step.getKey(), step.getValue(), inputs, diagnostics));
            addEdge(step.getKey(), step.getValue(), steps, edges, diagnostics);
        }
        checkChain(start, steps, diagnostics);
        workflow.set("inputs", declaredInputs(inputs));
        return workflow;
    }

    private static ObjectNode toNode(String id, JsonNode step, Set<String> inputs, Diagnostics diagnostics) {
        String pointer = "/steps/" + escape(id);
        if (step.has("id") && !id.equals(step.get("id").asString())) {
            diagnostics.error("plan", id, pointer + "/id", "Expected the step's id to equal its key '" + id
                    + "', but found '" + step.get("id").asString() + "'");
        }
        if (!step.path("agent_name").isString()) {
            diagnostics.error("plan", id, pointer + "/agent_name", "Expected step '" + id
                    + "' to name the agent it calls in agent_name, but it does not");
        }
        ObjectNode node = JSON.objectNode();
        node.put("id", id);
        node.put("type", "http_agent");
        node.putObject("config").put("agent", step.path("agent_name").asString(""));
        if (step.has("input_mapping")) {
            node.set("input", rewrite(step.get("input_mapping"), inputs));
        }
        return node;
    }

    private static void addEdge(String id, JsonNode step, JsonNode steps, ArrayNode edges, Diagnostics diagnostics) {
        JsonNode next = step.get("next_step");
        if (next == null || next.isNull()) {
            return;
        }
        if (!steps.has(next.asString())) {
            diagnostics.error("plan", id, "/steps/" + escape(id) + "/next_step", "Expected next_step to name one of "
                    + "the steps, but there is no step '" + next.asString() + "'");
            return;
        }
        edges.addObject().put("from", id).put("to", next.asString());
    }

    private static void checkChain(String start, JsonNode steps, Diagnostics diagnostics) {
        Set<String> onChain = new LinkedHashSet<>();
        for (String current = start; steps.has(current) && onChain.add(current); ) {
            current = steps.get(current).path("next_step").asString("");
        }
        for (String id : steps.propertyNames()) {
            if (steps.has(start) && !onChain.contains(id)) {
                diagnostics.error("plan", id, "/steps/" + escape(id), "Expected step '" + id + "' to be on the chain "
                        + "of next_step links from start_step '" + start + "', but it is not");
            }
        }
    }

    private static JsonNode rewrite(JsonNode value, Set<String> inputs) {
        if (value.isString()) {
            Matcher workflowInput = WORKFLOW_INPUT.matcher(value.asString());
            while (workflowInput.find()) {
                inputs.add(workflowInput.group(1));
            }
            return JSON.stringNode(STEP_REFERENCE.matcher(value.asString()).replaceAll("\\${nodes.$1.output"));
        }
        if (value.isObject()) {
            ObjectNode copy = JSON.objectNode();
            value.properties().forEach(entry -> copy.set(entry.getKey(), rewrite(entry.getValue(), inputs)));
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JSON.arrayNode();
            value.forEach(item -> copy.add(rewrite(item, inputs)));
            return copy;
        }
        return value.deepCopy();
    }

    private static ObjectNode declaredInputs(Set<String> names) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        List<String> required = new ArrayList<>(names);
        names.forEach(name -> properties.putObject(name));
        ArrayNode requiredArray = schema.putArray("required");
        required.forEach(requiredArray::add);
        return schema;
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
