package io.tokenflow.e2e;

import java.util.ArrayList;
import java.util.List;

/** A big workflow for the designer's tests: a start node fanning out to lanes of chained nodes, joined at the end. */
final class LaneWorkflow {

    private LaneWorkflow() {
    }

    /**
     * {@code 2 + lanes * length + extra} nodes (the first lane longer by {@code extra}), no positions; 10 lanes of 19
     * with 8 extra make 200 nodes and 208 edges.
     */
    static String json(String name, int lanes, int length, int extra) {
        List<String> nodes = new ArrayList<>(List.of(node("start", false), node("end", true)));
        List<String> edges = new ArrayList<>();
        for (int lane = 0; lane < lanes; lane++) {
            String previous = "start";
            for (int step = 0; step < length + (lane == 0 ? extra : 0); step++) {
                String id = "lane" + lane + "_" + step;
                nodes.add(node(id, false));
                edges.add("{\"from\": \"" + previous + "\", \"to\": \"" + id + "\"}");
                previous = id;
            }
            edges.add("{\"from\": \"" + previous + "\", \"to\": \"end\"}");
        }
        return "{\"name\": \"" + name + "\", \"nodes\": [" + String.join(", ", nodes) + "], \"edges\": ["
                + String.join(", ", edges) + "]}";
    }

    private static String node(String id, boolean join) {
        return "{\"id\": \"" + id + "\", \"type\": \"function\", \"config\": {\"function\": \"noop\"}"
                + (join ? ", \"wait_for_all\": true}" : "}");
    }
}
