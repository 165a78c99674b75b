package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

import io.tokenflow.agents.FakeLlmServer;
import io.tokenflow.approvals.ApprovalQueries;
import io.tokenflow.approvals.ApprovalRecord;
import io.tokenflow.approvals.DecideApproval;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.RunHistory;
import io.tokenflow.runs.RunQueries;
import io.tokenflow.runs.RunViews;
import io.tokenflow.runs.StartRun;
import io.tokenflow.security.Caller;
import io.tokenflow.security.Role;
import tools.jackson.databind.JsonNode;

/**
 * 1,000 concurrent runs of every fixture complete: each counter ends at 0, no Redis key of a finished run remains, the
 * event log holds each run's full, gapless history, and replaying it gives the live state. Branches and loops decide
 * with the real condition engine; human approvals are decided by an approver; agents talk to a fake OpenAI-compatible
 * server and a fake external HTTP agent, each on a real socket.
 */
@SpringBootTest(properties = {"tokenflow.supervisor.finished-run-retention=0s", "tokenflow.agents.llm.model=fake-model"})
@ContextConfiguration(initializers = FakeLlmServer.Initializer.class)
@Import(BranchesAndLoopsIntegrationTests.Gateway.class)
@ActiveProfiles("test")
class EngineScaleIntegrationTests {

    private static final int RUNS = 1_000;

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired RunQueries queries;
    @Autowired RunHistory history;
    @Autowired DecideApproval deciding;
    @Autowired ApprovalQueries approvals;
    static HttpServer externalAgent;

    @BeforeAll
    static void startExternalAgent() throws IOException {
        externalAgent = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        externalAgent.setExecutor(Executors.newFixedThreadPool(4));
        externalAgent.createContext("/", exchange -> {
            JsonNode task = EngineHarness.JSON.readTree(exchange.getRequestBody().readAllBytes());
            byte[] body = ("{\"status\": \"completed\", \"output\": {\"result\": \"notes on "
                    + task.path("input").path("topic").asString("the draft") + "\"}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        externalAgent.start();
    }

    @AfterAll
    static void stopExternalAgent() {
        externalAgent.stop(0);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "valid/sequential       | {}",
            "valid/fan-out-fan-in   | {}",
            "valid/data-enrichment  | {\"city\": \"Oslo\"}",
            "valid/parallel-fan-out | {\"size\": 10, \"items\": [{\"score\": 5}, {\"score\": 1}]}",
            "valid/lead-scoring     | {\"score\": 91, \"revenue\": 250000}",
            "engine/payment-retry   | {\"amount\": 1500, \"succeed_on\": 3}",
            "engine/loop-back       | {\"succeed_on\": 2}",
            "valid/lead-qualification-agent | {\"company\": \"Acme\", \"revenue\": 2000000}",
            "valid/research-and-write.plan  | {\"topic\": \"tokens\", \"style\": \"short\"}",
            "valid/hitl-approval    | {\"deal_value\": 250000}",
            "engine/human-entry     | {\"amount\": 120}",
            "engine/human-join      | {}"})
    void completesAThousandConcurrentRuns(String fixture, String inputs) {
        FakeLlmServer.INSTANCE.script(request -> FakeLlmServer.toolResults(request) == 0
                ? FakeLlmServer.toolCall("c1", "route", "{\"next_nodes\": [\"enterprise_sales\"], \"reasoning\": \"big\"}")
                : FakeLlmServer.answer("routed"), 10);
        for (String agent : List.of("ResearchAgent", "WriterAgent")) {
            jdbc.sql("insert into agents (tenant_id, name, url, created_at, updated_at) values ('default', :name, "
                    + ":url, now(), now()) on conflict (tenant_id, name) do update set url = excluded.url")
                    .param("name", agent)
                    .param("url", "http://127.0.0.1:" + externalAgent.getAddress().getPort() + "/" + agent).update();
        }
        EngineHarness engine = new EngineHarness(creating, starting, jdbc);
        String workflow = engine.workflow(fixture);
        List<UUID> runs = new ArrayList<>(RUNS);
        for (int i = 0; i < RUNS; i++) {
            runs.add(engine.start(workflow, inputs));
        }
        if (fixture.contains("hitl") || fixture.contains("human")) {
            approveAll(runs);
        }
        engine.awaitAll(runs, "COMPLETED", Duration.ofMinutes(3));

        assertThat(jdbc.sql("select count(*) from runs where id in (:ids) and final_counter = 0").param("ids", runs)
                .query(Long.class).single()).isEqualTo(RUNS);
        assertThat(jdbc.sql("select count(*) from (select run_id from event_log where run_id in (:ids) group by run_id "
                + "having min(seq) = 1 and max(seq) = count(*)) gapless").param("ids", runs).query(Long.class).single())
                .isEqualTo(RUNS);
        assertThat(jdbc.sql("select count(*) from event_log where run_id in (:ids) and event_type = 'run.completed'")
                .param("ids", runs).query(Long.class).single()).isEqualTo(RUNS);
        for (UUID run : runs) {
            assertThat(redis.commands().exists(keys.run(run).all().toArray(String[]::new))).as("keys of %s", run).isZero();
            assertReplayEqualsLiveState(run);
        }
    }

    /** Decides every run's approval as an approver once it is pending. */
    private void approveAll(List<UUID> runs) {
        Caller approver = new Caller("ada", Set.of(Role.APPROVER), Set.of(), Optional.empty());
        Set<UUID> waiting = new HashSet<>(runs);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            for (ApprovalRecord approval : allPending(null)) {
                if (waiting.remove(approval.runId())) {
                    deciding.decide(approval.id(), "approve", null, approver);
                }
            }
            return waiting.isEmpty();
        });
    }

    private void assertReplayEqualsLiveState(UUID run) {
        RunViews.Detail live = queries.get(run);
        RunViews.Replay replay = history.replay(run, null);
        assertThat(replay.status()).isEqualTo(live.status());
        assertThat(replay.counter()).isEqualTo(live.counter());
        assertThat(replay.outputs()).isEqualTo(toMap(live.outputs()));
        assertThat(replay.nodes()).hasSameSizeAs(live.nodes());
        for (RunViews.Node node : live.nodes()) {
            RunViews.Node replayed = replay.nodes().stream().filter(n -> n.node().equals(node.node())
                    && n.iteration() == node.iteration()).findFirst().orElseThrow();
            assertThat(replayed.status()).isEqualTo(node.status());
            assertThat(replayed.output()).isEqualTo(node.output());
        }
    }

    private static java.util.Map<String, tools.jackson.databind.JsonNode> toMap(tools.jackson.databind.JsonNode object) {
        java.util.Map<String, tools.jackson.databind.JsonNode> map = new java.util.LinkedHashMap<>();
        if (object != null) {
            object.properties().forEach(e -> map.put(e.getKey(), e.getValue()));
        }
        return map;
    }

    /** Every pending approval (of the caller's, when given), oldest first: all pages at once. */
    private List<ApprovalRecord> allPending(Caller caller) {
        return approvals.pending(caller, 0, Integer.MAX_VALUE);
    }
}
