package io.tokenflow.benchmark;

import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The benchmark's workflows: every node runs the no-op probe. */
final class Workflows {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Workflows() {
    }

    static JsonNode chain(int length) {
        ObjectNode workflow = workflow("bench-chain-" + length);
        for (int i = 1; i <= length; i++) {
            node(workflow, "n" + i, false);
            if (i > 1) {
                edge(workflow, "n" + (i - 1), "n" + i);
            }
        }
        return workflow;
    }

    static JsonNode fanOutFanIn() {
        ObjectNode workflow = workflow("bench-fan-out-fan-in");
        node(workflow, "A", false);
        node(workflow, "B", false);
        node(workflow, "C", false);
        node(workflow, "D", true);
        edge(workflow, "A", "B");
        edge(workflow, "A", "C");
        edge(workflow, "B", "D");
        edge(workflow, "C", "D");
        return workflow;
    }

    /** A map node over the run's input {@code items} (the probe per element, {@code concurrency} at a time), then done. */
    static JsonNode map(int concurrency) {
        ObjectNode workflow = workflow("bench-map-" + concurrency);
        node(workflow, "M", false);
        ((ObjectNode) workflow.get("nodes").get(0)).putObject("map").put("items", "${workflow.input.items}")
                .put("concurrency", concurrency);
        node(workflow, "done", false);
        edge(workflow, "M", "done");
        return workflow;
    }

    private static ObjectNode workflow(String name) {
        ObjectNode workflow = JSON.objectNode();
        workflow.put("name", name + "-" + UUID.randomUUID().toString().substring(0, 8));
        workflow.putArray("nodes");
        workflow.putArray("edges");
        return workflow;
    }

    private static void node(ObjectNode workflow, String id, boolean join) {
        ObjectNode node = ((ArrayNode) workflow.get("nodes")).addObject();
        node.put("id", id);
        node.put("type", "function");
        node.putObject("config").put("function", Probe.NAME);
        if (join) {
            node.put("wait_for_all", true);
        }
    }

    private static void edge(ObjectNode workflow, String from, String to) {
        ((ArrayNode) workflow.get("edges")).addObject().put("from", from).put("to", to);
    }
}
