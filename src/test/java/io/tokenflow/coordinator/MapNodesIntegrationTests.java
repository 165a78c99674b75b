package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.redis.RedisKeys;
import io.tokenflow.tracing.TraceIds;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Map nodes driven as users do: runs started on the REST API, the elements taken by an external worker speaking only
 * the Redis protocol ({@link ManualWorker}), the outcome read from the event log and the run's API.
 */
class MapNodesIntegrationTests extends OperatorTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired RedisKeys keys;

    /** fetch (passes the input on) → enrich (a map over its customers, on an external worker type) → after. */
    private String workflow(String type, String mapSettings, String nodeSettings) throws Exception {
        return api.created("""
                {"name": "map-%s", "nodes": [
                   {"id": "fetch", "type": "function", "config": {"function": "echo"}},
                   {"id": "enrich", "type": "%s", "map": {"items": "${nodes.fetch.output.customers}"%s}%s},
                   {"id": "after", "type": "function", "config": {"function": "echo"}},
                   {"id": "caught", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "fetch", "to": "enrich"}, {"from": "enrich", "to": "after"}]}"""
                .formatted(UUID.randomUUID(), type, mapSettings, nodeSettings));
    }

    @Test
    void aMapRunsOneTaskPerElementAtMostConcurrencyAtATimeAndCollectsTheOutputsInElementOrder() throws Exception {
        String type = api.customType("enrich");
        UUID run = api.start(workflow(type, ", \"concurrency\": 3", ""),
                "{\"customers\": [\"ann\", \"bob\", \"cy\", \"dee\", \"eve\", \"fay\", \"gus\"]}");
        ManualWorker worker = api.worker(type);
        List<StreamMessage<String, String>> first = awaitTasks(worker, 3);
        assertThat(worker.take()).as("no more than the concurrency").isEmpty();
        assertThat(first).extracting(task -> task.getBody().get("input"))
                .containsExactly("\"ann\"", "\"bob\"", "\"cy\"");
        assertThat(first).extracting(task -> task.getBody().get("token")).doesNotHaveDuplicates();
        awaitLogged(run, "map.started", 1);
        assertThat(api.read(get("/api/v1/runs/" + run)).get("status").asString()).isEqualTo("RUNNING");
        String mapToken = jdbc.sql("select token_id from event_log where run_id = ? and event_type = 'token.emitted' "
                + "and node_id = 'enrich'").param(run).query(String.class).single();
        assertThat(first).extracting(task -> task.getBody().get("traceparent")).as("elements work under their map")
                .containsOnly(TraceIds.traceparent(run, mapToken));

        // elements finish out of order (the second oldest first); each finished one lets the one 3 places on in
        List<String> names = List.of("ann", "bob", "cy", "dee", "eve", "fay", "gus");
        List<StreamMessage<String, String>> running = new ArrayList<>(first);
        for (int completed = 0; completed < names.size(); completed++) {
            StreamMessage<String, String> done = running.remove(running.size() > 1 ? 1 : 0);
            worker.complete(done, "{\"name\": " + done.getBody().get("input") + ", \"score\": " + completed + "}");
            int index = names.indexOf(JSON.readTree(done.getBody().get("input")).asString());
            if (index + 3 < names.size()) {
                List<StreamMessage<String, String>> next = awaitTasks(worker, 1);
                assertThat(next.get(0).getBody().get("input")).isEqualTo("\"" + names.get(index + 3) + "\"");
                running.addAll(next);
            }
            assertThat(running.size()).isLessThanOrEqualTo(3);
        }
        api.awaitStatus(run, "COMPLETED");
        JsonNode list = JSON.readTree(jdbc.sql("select data->'output' from event_log where run_id = ? and "
                + "event_type = 'node.completed' and node_id = 'after'").param(run).query(String.class).single());
        assertThat(list).hasSize(7);
        List<String> collected = new ArrayList<>();
        list.forEach(element -> collected.add(element.get("name").asString()));
        assertThat(collected).isEqualTo(names);
        assertThat(eventTypes(run).stream().filter("map.item.completed"::equals)).hasSize(7);
        assertThat(eventTypes(run).stream().filter("map.items.done"::equals)).hasSize(1);
        assertThat(api.redis().hlen(keys.run(run).maps())).as("the map's state is gone").isZero();
    }

    @Test
    void anElementsTransientFailureIsRetriedAndOneWithNoRetryLeftStandsInTheListAsItsErrorOnAnErrorPath()
            throws Exception {
        String type = api.customType("enrich");
        UUID run = api.start(workflow(type, ", \"concurrency\": 5",
                        ", \"retry\": {\"max_attempts\": 2, \"backoff_ms\": 10, \"jitter\": 0},"
                                + " \"on_failure\": {\"action\": \"path\", \"next_nodes\": [\"caught\"]}"),
                "{\"customers\": [\"ann\", \"bob\", \"cy\"]}");
        ManualWorker worker = api.worker(type);
        List<StreamMessage<String, String>> tasks = awaitTasks(worker, 3);
        worker.complete(tasks.get(0), "\"A\"");
        worker.failTransiently(tasks.get(1), "busy");
        worker.fail(tasks.get(2), "no such customer");
        StreamMessage<String, String> again = worker.takeOne(Duration.ofSeconds(10));
        assertThat(again.getBody()).containsEntry("token", tasks.get(1).getBody().get("token"))
                .containsEntry("attempt", "2");
        worker.complete(again, "\"B\"");

        api.awaitStatus(run, "COMPLETED");
        JsonNode list = JSON.readTree(jdbc.sql("select data->'output' from event_log where run_id = ? and "
                + "event_type = 'node.completed' and node_id = 'after'").param(run).query(String.class).single());
        assertThat(list.get(0).asString()).isEqualTo("A");
        assertThat(list.get(1).asString()).isEqualTo("B");
        assertThat(list.get(2).get("error").get("message").asString()).isEqualTo("no such customer");
        assertThat(eventTypes(run)).contains("node.retrying", "map.item.failed").doesNotContain("node.failed");
    }

    @Test
    void anElementThatFailsWithNoErrorPathFailsTheRunNamingTheElement() throws Exception {
        String type = api.customType("enrich");
        UUID run = api.start(workflow(type, ", \"concurrency\": 2", ""), "{\"customers\": [1, 2, 3, 4]}");
        ManualWorker worker = api.worker(type);
        List<StreamMessage<String, String>> tasks = awaitTasks(worker, 2);
        worker.complete(tasks.get(0), "1");
        worker.fail(tasks.get(1), "bad element");
        api.awaitStatus(run, "FAILED");
        JsonNode failed = JSON.readTree(jdbc.sql("select data::text from event_log where run_id = ? and "
                + "event_type = 'node.failed'").param(run).query(String.class).single());
        assertThat(failed.get("error").get("message").asString()).isEqualTo("Element 1 of the map failed: bad element");
    }

    @Test
    void aMapRedisLostIsStartedAgainByTheRecoveryAndCompletesWithEveryElementsLastOutcome() throws Exception {
        String type = api.customType("enrich");
        UUID run = api.start(workflow(type, ", \"concurrency\": 2", ""),
                "{\"customers\": [\"ann\", \"bob\", \"cy\"]}");
        ManualWorker worker = api.worker(type);
        List<StreamMessage<String, String>> first = awaitTasks(worker, 2);
        worker.complete(first.get(0), "\"A1\"");
        StreamMessage<String, String> third = awaitTasks(worker, 1).get(0);
        awaitLogged(run, "map.item.completed", 1);
        api.redis().del(keys.run(run).all().toArray(String[]::new));

        mvc.perform(post("/api/v1/runs/" + run + "/recover").with(user("root").roles("ADMIN")).with(csrf()))
                .andExpect(status().isAccepted());
        awaitLogged(run, "map.started", 2);
        List<StreamMessage<String, String>> again = awaitTasks(worker, 2);
        assertThat(again).extracting(task -> task.getBody().get("token"))
                .as("the elements run again under their own ids").containsExactly(
                        first.get(0).getBody().get("token"), first.get(1).getBody().get("token"));
        worker.complete(again.get(0), "\"A2\"");
        worker.complete(again.get(1), "\"B2\"");
        StreamMessage<String, String> thirdAgain = awaitTasks(worker, 1).get(0);
        assertThat(thirdAgain.getBody().get("token")).isEqualTo(third.getBody().get("token"));
        worker.complete(thirdAgain, "\"C2\"");
        // the first attempts' completions come in after every element's new one was routed (A1 logged before the
        // loss, A2, B2, C2 since): sent sooner, another coordinator thread might route B-late before B2, and the
        // first completion of a token is the one that counts
        awaitLogged(run, "map.item.completed", 4);
        worker.complete(first.get(1), "\"B-late\"");
        worker.complete(third, "\"C-late\"");

        api.awaitStatus(run, "COMPLETED");
        JsonNode list = JSON.readTree(jdbc.sql("select data->'output' from event_log where run_id = ? and "
                + "event_type = 'node.completed' and node_id = 'after'").param(run).query(String.class).single());
        assertThat(list.toString()).isEqualTo("[\"A2\",\"B2\",\"C2\"]");
    }

    @Test
    void aListThatIsNoListFailsTheMapNodeAndAnEmptyListCompletesIt() throws Exception {
        String type = api.customType("enrich");
        String workflow = workflow(type, "", "");
        UUID notAList = api.start(workflow, "{\"customers\": {\"ann\": 1}}");
        UUID empty = api.start(workflow, "{\"customers\": []}");
        api.awaitStatus(notAList, "FAILED");
        assertThat(jdbc.sql("select data->'error'->>'code' from event_log where run_id = ? and "
                + "event_type = 'node.failed'").param(notAList).query(String.class).single())
                .isEqualTo("invalid_map_items");
        api.awaitStatus(empty, "COMPLETED");
        assertThat(jdbc.sql("select data->'output' from event_log where run_id = ? and event_type = 'node.completed' "
                + "and node_id = 'enrich'").param(empty).query(String.class).single()).isEqualTo("[]");
    }

    @Test
    void aMapOfTenThousandElementsCompletesInOrderWithRedisHoldingOnlyItsRunningElements() throws Exception {
        int elements = 10_000;
        int concurrency = 50;
        String workflow = api.created("""
                {"name": "map-10k-%s", "nodes": [
                   {"id": "fetch", "type": "function", "config": {"function": "echo"}},
                   {"id": "square", "type": "function", "config": {"function": "echo"},
                    "map": {"items": "${nodes.fetch.output.numbers}", "concurrency": %d}}],
                 "edges": [{"from": "fetch", "to": "square"}]}""".formatted(UUID.randomUUID(), concurrency));
        StringBuilder numbers = new StringBuilder("[");
        for (int i = 0; i < elements; i++) {
            numbers.append(i == 0 ? "" : ",").append("{\"n\":").append(i).append('}');
        }
        long usedBefore = usedMemory();
        UUID run = api.start(workflow, "{\"numbers\": " + numbers.append(']') + "}");
        // at most: tokens in flight, task stream entries, used_memory, the run's keys, the map's state
        long[] max = new long[5];
        long started = System.nanoTime();
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50)).until(() -> {
            sample(run, max);
            return "COMPLETED".equals(jdbc.sql("select status from runs where id = ?").param(run)
                    .query(String.class).optional().orElse(null));
        });
        long maxInFlight = max[0];
        long maxStream = max[1];
        long maxUsed = max[2];
        long maxRunKeys = max[3];
        long maxMapState = max[4];
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("Map of %,d elements, concurrency %d: completed in %.1f s (%,.0f elements/s); tokens in "
                        + "flight at most %d, task stream at most %d entries; the map's state in Redis (tokens, kept "
                        + "tasks, map) at most %,d bytes (%.0f bytes per running element); all the run's keys at most "
                        + "%,d bytes; Redis used_memory at most %,d bytes "
                        + "above its start%n",
                elements, concurrency, seconds, elements / seconds, maxInFlight, maxStream, maxMapState,
                (double) maxMapState / concurrency, maxRunKeys, maxUsed - usedBefore);
        assertThat(maxInFlight).as("the map's token and its running elements").isLessThanOrEqualTo(concurrency + 1);
        assertThat(maxMapState).as("the map's state: its running elements, no list and no outputs")
                .isLessThan(concurrency * 1_000L);

        String ref = JSON.readTree(jdbc.sql("select data->'output' from event_log where run_id = ? and "
                + "event_type = 'node.completed' and node_id = 'square'").param(run).query(String.class).single())
                .get("$ref").asString();
        JsonNode list = api.read(get("/api/v1/cas/" + ref.substring("cas://".length())));
        assertThat(list).hasSize(elements);
        for (int i = 0; i < elements; i++) {
            assertThat(list.get(i).get("n").asInt()).isEqualTo(i);
        }
    }

    /** Samples what a map keeps in Redis into the maxima {@code max} (see its use). */
    private void sample(UUID run, long[] max) {
        max[0] = Math.max(max[0], api.redis().hlen(keys.run(run).tokens()));
        max[1] = Math.max(max[1], api.redis().xlen(keys.taskStream("function", keys.shardOf(run))));
        max[2] = Math.max(max[2], usedMemory());
        long runKeys = 0;
        long mapState = 0;
        for (String key : api.redis().keys("wf.run:{" + keys.shardOf(run) + "}:" + run + ":*")) {
            Long usage = api.redis().memoryUsage(key);
            runKeys += usage == null ? 0 : usage;
            // meta holds the run's input and ctx the outputs before the map: the workflow's data, not the map's
            mapState += usage == null || key.endsWith(":meta") || key.endsWith(":ctx") ? 0 : usage;
        }
        max[3] = Math.max(max[3], runKeys);
        max[4] = Math.max(max[4], mapState);
    }

    private long usedMemory() {
        String info = api.redis().info("memory");
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("Expected used_memory in INFO memory, but found " + info);
    }

    private static List<StreamMessage<String, String>> awaitTasks(ManualWorker worker, int count) {
        List<StreamMessage<String, String>> taken = new ArrayList<>();
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (taken.size() < count && System.nanoTime() < until) {
            taken.addAll(worker.take());
        }
        assertThat(taken).as("tasks taken").hasSize(count);
        return taken;
    }
}
