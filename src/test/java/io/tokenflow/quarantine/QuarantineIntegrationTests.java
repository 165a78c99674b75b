package io.tokenflow.quarantine;

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
import java.util.Map;
import java.util.UUID;
import java.util.function.LongFunction;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Chaos (e) as an operator sees it: an entry nobody can process, written to a shard's events stream by hand among the
 * entries of many runs started through the API. Only its run fails, with the reason; every other run completes and
 * reaches the event log; the entry is on the quarantine page and in the API with its raw text.
 */
@IntegrationTest
@AutoConfigureMockMvc
class QuarantineIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static final int RUNS = 1_000;

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;

    @Test
    void onePoisonedEntryAmongAThousandRunsFailsOnlyItsRunAndIsShownInTheQuarantine() throws Exception {
        String sequential = created("valid/sequential");
        UUID victim = start(created("valid/hitl-approval"), "{\"deal_value\": 250000}");
        await().atMost(PATIENCE).until(() -> count("select count(*) from approvals where run_id = ? "
                + "and status = 'PENDING'", victim) == 1);
        List<UUID> others = new ArrayList<>();
        for (int i = 0; i < RUNS / 2; i++) {
            others.add(start(sequential, "{}"));
        }
        Poison poison = poison(victim);
        for (int i = 0; i < RUNS / 2 - 1; i++) {
            others.add(start(sequential, "{}"));
        }

        await().atMost(PATIENCE).until(() -> count("select count(*) from runs where id = any(?) "
                + "and status = 'COMPLETED'", others.toArray(UUID[]::new)) == others.size());
        assertThat(count("select count(*) from event_log where run_id = any(?) and event_type = 'run.completed'",
                (Object) others.toArray(UUID[]::new))).isEqualTo(others.size());
        await().atMost(PATIENCE).until(() -> "FAILED".equals(read(get("/api/v1/runs/" + victim)).path("status")
                .asString()));
        JsonNode run = read(get("/api/v1/runs/" + victim));
        assertThat(run.path("error").asString()).startsWith("Expected event-log entry " + poison.entryId() + " of run "
                + victim + " to be stored, but PostgreSQL refused it: ").contains("; it is in quarantine ");
        // the quarantined seq is logged as such, and the run's failure right after it
        assertThat(jdbc.sql("select seq from event_log where run_id = ? and event_type = 'entry.quarantined'")
                .param(victim).query(Long.class).single()).isEqualTo(poison.seq());
        assertThat(jdbc.sql("select seq from event_log where run_id = ? and event_type = 'run.failed'").param(victim)
                .query(Long.class).single()).isEqualTo(poison.seq() + 1);
        assertThat(read(get("/api/v1/runs/" + victim + "/replay")).path("status").asString()).isEqualTo("FAILED");
        assertThat(call(get("/runs/" + victim)).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString()).contains("is in quarantine");
        assertThat(count("select count(*) from approvals where run_id = ? and status = 'PENDING'", victim)).isZero();

        JsonNode quarantined = quarantined(poison.entryId());
        assertThat(quarantined.path("runId").asString()).isEqualTo(victim.toString());
        assertThat(quarantined.path("firstSeq").asLong()).isEqualTo(poison.seq());
        assertThat(quarantined.path("raw").asString()).contains("ghost").contains("a\\\\u0000b");
        assertThat(quarantined.path("reason").asString()).startsWith("Expected PostgreSQL to store it, but it refused");
        String page = call(get("/quarantine")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
        assertThat(page).contains(poison.entryId()).contains("/runs/" + victim).contains("ghost");
    }

    @Test
    void malformedEntriesWrittenByHandAreQuarantinedWithTheirRawTextAndRunsGoOn() throws Exception {
        String stream = keys.eventsStream(0);
        String noRun = redis.commands().xadd(stream, Map.of("run", "not-a-run", "events", "[]"));
        String broken = redis.commands().xadd(stream, Map.of("run", UUID.randomUUID().toString(),
                "events", "[{\"seq\": 1, \"type\": \"no.such\", \"at\": 1}]", "note", "a\u0000b"));
        String stray = redis.commands().xadd(stream, Map.of("hello", "world"));
        UUID later = start(created("valid/sequential"), "{}");

        await().atMost(PATIENCE).until(() -> "COMPLETED".equals(read(get("/api/v1/runs/" + later)).path("status")
                .asString()));
        assertThat(quarantined(noRun).path("runId").isNull()).isTrue();
        assertThat(quarantined(noRun).path("reason").asString()).startsWith("Expected events-stream entry " + noRun
                + " of " + stream + " to follow docs/run-events.md, but ");
        assertThat(quarantined(broken).path("firstSeq").asLong()).isEqualTo(1);
        // a NUL character PostgreSQL could not store is kept as its escape
        assertThat(quarantined(broken).path("raw").asString()).contains("no.such")
                .contains("\"note\": \"a\\u0000b\"");
        assertThat(quarantined(stray).path("raw").asString()).isEqualTo("{\"hello\": \"world\"}");
    }

    @Test
    void anUnreadableEntryOfARunningRunFailsThatRunWithTheReadingErrorAndItsLogGoesOn() throws Exception {
        UUID victim = start(created("valid/hitl-approval"), "{\"deal_value\": 250000}");
        await().atMost(PATIENCE).until(() -> count("select count(*) from approvals where run_id = ? "
                + "and status = 'PENDING'", victim) == 1);
        Poison poison = append(victim, seq -> "[{\"seq\":" + seq + ",\"type\":\"node.exploded\",\"at\":1}]");
        UUID later = start(created("valid/sequential"), "{}");

        await().atMost(PATIENCE).until(() -> "FAILED".equals(read(get("/api/v1/runs/" + victim)).path("status")
                .asString()));
        assertThat(read(get("/api/v1/runs/" + victim)).path("error").asString()).startsWith("Expected events-stream "
                + "entry " + poison.entryId() + " of " + keys.eventsStream(keys.shardOf(victim)) + " to follow "
                + "docs/run-events.md, but ").contains("'node.exploded'").contains("; it is in quarantine ");
        assertThat(jdbc.sql("select event_type from event_log where run_id = ? and seq >= ? order by seq")
                .params(victim, poison.seq()).query(String.class).list())
                .containsExactly("entry.quarantined", "run.failed");
        assertThat(quarantined(poison.entryId()).path("firstSeq").asLong()).isEqualTo(poison.seq());
        await().atMost(PATIENCE).until(() -> "COMPLETED".equals(read(get("/api/v1/runs/" + later)).path("status")
                .asString()));
    }

    /** A step's entry with a node output PostgreSQL refuses (NUL), as a bug might append it: seq taken from meta. */
    private Poison poison(UUID run) {
        return append(run, seq -> {
            long now = System.currentTimeMillis();
            return "[{\"seq\":" + seq + ",\"type\":\"node.completed\",\"at\":" + now + ",\"node\":\"ghost\","
                    + "\"token\":\"tghost\",\"data\":{\"iteration\":0,\"output\":{\"text\":\"a\\u0000b\"},"
                    + "\"worker\":\"hand\",\"started_at\":" + now + ",\"terminal\":true}}]";
        });
    }

    /** Appends an entry to the run's events stream as a step would: its seq taken from the run's meta. */
    private Poison append(UUID run, LongFunction<String> events) {
        int shard = keys.shardOf(run);
        long seq = redis.commands().hincrby(keys.run(run, shard).meta(), "seq", 1);
        String id = redis.commands().xadd(keys.eventsStream(shard), Map.of("run", run.toString(), "events",
                events.apply(seq)));
        return new Poison(id, seq);
    }

    private JsonNode quarantined(String entryId) throws Exception {
        await().atMost(PATIENCE).until(() -> find(entryId) != null);
        return find(entryId);
    }

    private JsonNode find(String entryId) throws Exception {
        for (JsonNode entry : read(get("/api/v1/quarantine"))) {
            if (entry.path("entryId").asString().equals(entryId)) {
                return entry;
            }
        }
        return null;
    }

    private long count(String sql, Object argument) {
        return jdbc.sql(sql).param(argument).query(Long.class).single();
    }

    private String created(String fixture) throws Exception {
        String name = TestWorkflows.unique(fixture.substring(fixture.indexOf('/') + 1));
        call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                .content(TestWorkflows.fixture(fixture, name))).andExpect(status().isCreated());
        return name;
    }

    private UUID start(String workflow, String inputs) throws Exception {
        return UUID.fromString(JSON.readTree(call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"workflow\": \"" + workflow + "\", \"inputs\": " + inputs + "}"))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString()).get("id").asString());
    }

    private JsonNode read(MockHttpServletRequestBuilder request) throws Exception {
        return JSON.readTree(call(request).andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }

    private org.springframework.test.web.servlet.ResultActions call(MockHttpServletRequestBuilder request)
            throws Exception {
        return mvc.perform(request.with(user("olga").roles("OPERATOR", "DESIGNER")).with(csrf()));
    }

    private record Poison(String entryId, long seq) {
    }
}
