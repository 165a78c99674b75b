package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

import io.tokenflow.support.OutsiderRedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Node failures as a user meets them (retries, error paths, timeouts, deadlines): workflows created and runs started
 * over the REST API, tasks taken by an external worker that speaks only the Redis protocol of docs/worker-protocol.md
 * (or by the built-in workers), and the outcome read back from the API and the event log.
 */
class NodeFailuresIntegrationTests extends OperatorTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired RunTerminator terminator;

    @Test
    void aTaskFailingTwiceTransientlyThenSucceedingCompletesWithThreeAttemptsAndBackoffWithinPolicy() throws Exception {
        String type = api.customType("charge");
        String workflow = api.created("""
                {"name": "retry-%s", "nodes": [
                  {"id": "charge", "type": "%s", "retry": {"max_attempts": 3, "backoff_ms": 300, "multiplier": 2,
                   "jitter": 0}},
                  {"id": "receipt", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "charge", "to": "receipt"}]}""".formatted(UUID.randomUUID(), type));
        UUID run = api.start(workflow);
        ManualWorker worker = api.worker(type);

        List<StreamMessage<String, String>> attempts = new ArrayList<>();
        List<Long> takenAt = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
            takenAt.add(System.currentTimeMillis());
            attempts.add(token);
            if (i < 2) {
                worker.failTransiently(token, "gateway busy");
            } else {
                worker.complete(token, "{\"charged\": true}");
            }
        }

        assertThat(attempts).extracting(token -> token.getBody().get("token")).containsOnly(
                attempts.get(0).getBody().get("token"));
        assertThat(attempts).extracting(token -> token.getBody().get("attempt")).containsExactly("1", "2", "3");
        assertThat(takenAt.get(1) - takenAt.get(0)).isBetween(300L, 2_300L);
        assertThat(takenAt.get(2) - takenAt.get(1)).isBetween(600L, 2_600L);
        api.awaitStatus(run, "COMPLETED");
        JsonNode detail = api.read(get("/api/v1/runs/" + run));
        assertThat(detail.at("/outputs/receipt/charged").asBoolean()).isTrue();
        List<Map<String, Object>> retrying = jdbc.sql("select (data->>'attempt')::int as attempt, "
                + "(data->>'delay_ms')::bigint as delay, data->'error'->>'code' as code from event_log "
                + "where run_id = ? and event_type = 'node.retrying' order by seq").param(run).query().listOfRows();
        assertThat(retrying).extracting(row -> row.get("attempt")).containsExactly(1, 2);
        assertThat(retrying).extracting(row -> row.get("delay")).containsExactly(300L, 600L);
        assertThat(retrying).extracting(row -> row.get("code")).containsOnly("http_503");
        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(replay.get("counter").asLong()).isZero();
        assertThat(replay.get("nodes")).filteredOn(node -> node.get("node").asString().equals("charge"))
                .singleElement().satisfies(node -> assertThat(node.get("status").asString()).isEqualTo("COMPLETED"));
    }

    @Test
    void aTaskPastItsTimeoutFailsTransientlyAndItsNextAttemptSucceeds() throws Exception {
        String type = api.customType("quote");
        String workflow = api.created("""
                {"name": "timeout-%s", "nodes": [
                  {"id": "quote", "type": "%s", "timeout_s": 0.8,
                   "retry": {"max_attempts": 2, "backoff_ms": 50, "jitter": 0}}]}""".formatted(UUID.randomUUID(), type));
        UUID run = api.start(workflow);
        ManualWorker worker = api.worker(type);
        StreamMessage<String, String> first = worker.takeOne(Duration.ofSeconds(10));   // and never answered

        StreamMessage<String, String> second = worker.takeOne(Duration.ofSeconds(10));
        // from dispatch to dispatch, by the entries' ids (Redis's clock when each was added): the worker reads the
        // shards' streams one after the other, so the moment it took the first token may be later than its dispatch
        assertThat(second.getStream()).isEqualTo(first.getStream());
        assertThat(addedAt(second) - addedAt(first)).isGreaterThanOrEqualTo(800L);
        assertThat(second.getBody()).containsEntry("token", first.getBody().get("token")).containsEntry("attempt", "2");
        worker.complete(second, "{\"price\": 3}");
        api.awaitStatus(run, "COMPLETED");
        assertThat(jdbc.sql("select data->'error'->>'code' from event_log where run_id = ? and event_type = "
                + "'node.retrying'").param(run).query(String.class).list()).containsExactly("timeout");
    }

    @Test
    void heartbeatsKeepALongTaskWithinItsTimeoutAndItsRunActive() throws Exception {
        String type = api.customType("render");
        String workflow = api.created("""
                {"name": "heartbeat-%s", "nodes": [{"id": "render", "type": "%s", "timeout_s": 1}]}"""
                .formatted(UUID.randomUUID(), type));
        UUID run = api.start(workflow);
        ManualWorker worker = api.worker(type);
        StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
        java.time.Instant before = java.time.Instant.now();
        long until = System.currentTimeMillis() + 2_500;
        while (System.currentTimeMillis() < until) {   // 2.5 s of work, a heartbeat every 300 ms
            worker.heartbeat(token);
            await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        }
        assertThat(terminator.failIdle(run, before, "idle")).as("a heartbeating run is active").isFalse();
        worker.complete(token, "{}");
        api.awaitStatus(run, "COMPLETED");
        assertThat(eventTypesOnceEnded(run)).doesNotContain("node.retrying", "node.failed");
    }

    @Test
    void aRunPastItsDeadlineIsCancelledOrFailedAsItsWorkflowSays() throws Exception {
        String sleeping = api.created("""
                {"name": "deadline-cancel-%s", "deadline": {"seconds": 1, "action": "cancel"}, "nodes": [
                  {"id": "nap", "type": "function", "config": {"function": "sleep", "args": {"ms": 20000}}}]}"""
                .formatted(UUID.randomUUID()));
        String waiting = api.created("""
                {"name": "deadline-fail-%s", "deadline": {"seconds": 0.5}, "nodes": [
                  {"id": "wait", "type": "%s"}]}""".formatted(UUID.randomUUID(), api.customType("nobody")));
        long started = System.currentTimeMillis();
        UUID cancelled = api.start(sleeping);
        UUID failed = api.start(waiting);

        api.awaitStatus(cancelled, "CANCELLED");
        api.awaitStatus(failed, "FAILED");
        assertThat(System.currentTimeMillis() - started).isLessThan(10_000L);
        assertThat(jdbc.sql("select data->>'by' from event_log where run_id = ? and event_type = 'run.cancelled'")
                .param(cancelled).query(String.class).single()).isEqualTo("deadline");
        assertThat(api.read(get("/api/v1/runs/" + failed)).get("error").asString()).contains("deadline");
    }

    @Test
    void aRepeatedFailureSignalOfAnAttemptAlreadyRetriedIsAbsorbed() throws Exception {
        String type = api.customType("ship");
        String workflow = api.created("""
                {"name": "retry-dup-%s", "nodes": [
                  {"id": "ship", "type": "%s", "retry": {"max_attempts": 2, "backoff_ms": 200, "jitter": 0}}]}"""
                .formatted(UUID.randomUUID(), type));
        UUID run = api.start(workflow);
        ManualWorker worker = api.worker(type);
        StreamMessage<String, String> first = worker.takeOne(Duration.ofSeconds(10));
        worker.failTransiently(first, "busy");
        worker.failTransiently(first, "busy");

        StreamMessage<String, String> second = worker.takeOne(Duration.ofSeconds(10));
        assertThat(second.getBody().get("attempt")).isEqualTo("2");
        worker.complete(second, "{}");
        api.awaitStatus(run, "COMPLETED");
        assertThat(eventTypesOnceEnded(run)).containsOnlyOnce("node.retrying");
    }

    @Test
    void aWorkersOutputOrErrorPostgresqlCannotStoreFailsItsNodeAndTheEventLogKeepsFlowing() throws Exception {
        String type = api.customType("scan");
        String workflow = api.created("""
                {"name": "poison-output-%s", "nodes": [
                  {"id": "scan", "type": "%s", "retry": {"max_attempts": 3, "backoff_ms": 10},
                   "on_failure": {"action": "path", "next_nodes": ["report"]}},
                  {"id": "report", "type": "function", "config": {"function": "echo"}}]}"""
                .formatted(UUID.randomUUID(), type));
        ManualWorker worker = api.worker(type);
        UUID nul = api.start(workflow);
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"text\": \"a\\u0000b\"}");
        api.awaitStatus(nul, "COMPLETED");
        JsonNode report = api.read(get("/api/v1/runs/" + nul)).at("/outputs/report/error");
        assertThat(report.get("code").asString()).isEqualTo("unstorable_output");
        assertThat(report.get("kind").asString()).isEqualTo("permanent");
        assertThat(report.get("message").asString()).contains("'/text'", "NUL");

        UUID surrogate = api.start(workflow);
        StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
        api.redis().xadd(OutsiderRedis.completionsStreamOf(token), api.key().signed(Map.of(
                "token", token.getBody().get("token"),
                "run", surrogate.toString(), "node", "scan", "status", "failed", "worker", "manual",
                "error", "{\"message\": \"bad \\ud800\", \"kind\": \"permanent\"}")));
        api.awaitStatus(surrogate, "COMPLETED");
        assertThat(api.read(get("/api/v1/runs/" + surrogate)).at("/outputs/report/error/code").asString())
                .isEqualTo("unstorable_error");

        UUID later = api.start(workflow);
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"text\": \"fine\"}");
        api.awaitStatus(later, "COMPLETED");
        assertThat(eventTypesOnceEnded(later)).contains("node.completed", "run.completed");
    }

    @Test
    void aPermanentFailureIsNotRetried() throws Exception {
        String workflow = api.created("""
                {"name": "retry-permanent-%s", "nodes": [
                  {"id": "validate", "type": "function", "config": {"function": "fail",
                   "args": {"kind": "permanent", "message": "bad card"}},
                   "retry": {"max_attempts": 5, "backoff_ms": 10}}]}""".formatted(UUID.randomUUID()));
        UUID run = api.start(workflow);
        api.awaitStatus(run, "FAILED");
        assertThat(eventTypesOnceEnded(run)).doesNotContain("node.retrying").contains("node.failed");
    }

    @Test
    void exhaustedRetriesOfABuiltInWorkerFailTheRunAfterEveryAttempt() throws Exception {
        String workflow = api.created("""
                {"name": "retry-exhausted-%s", "retry": {"max_attempts": 3, "backoff_ms": 20, "jitter": 0},
                 "nodes": [
                  {"id": "call", "type": "function", "config": {"function": "fail",
                   "args": {"kind": "transient", "message": "timeout"}}}]}""".formatted(UUID.randomUUID()));
        UUID run = api.start(workflow);
        api.awaitStatus(run, "FAILED");
        assertThat(eventTypesOnceEnded(run)).containsSubsequence("node.retrying", "node.retrying", "node.failed", "run.failed");
        assertThat(jdbc.sql("select data->>'attempt' from event_log where run_id = ? and event_type = 'node.retrying' "
                + "order by seq").param(run).query(String.class).list()).containsExactly("1", "2");
    }

    @Test
    void aFailureWithoutRetriesLeftFollowsTheNodesErrorPathAndTheRunGoesOn() throws Exception {
        String workflow = api.created("""
                {"name": "catch-%s", "nodes": [
                  {"id": "charge", "type": "function", "config": {"function": "fail",
                   "args": {"kind": "transient", "message": "card network down"}},
                   "retry": {"max_attempts": 2, "backoff_ms": 20, "jitter": 0},
                   "on_failure": {"action": "path", "next_nodes": ["refund"]}},
                  {"id": "ship", "type": "function", "config": {"function": "echo"}},
                  {"id": "refund", "type": "function", "config": {"function": "echo"},
                   "input": {"why": "${nodes.charge.output.error.message}"}}],
                 "edges": [{"from": "charge", "to": "ship"}]}""".formatted(UUID.randomUUID()));
        UUID run = api.start(workflow);
        api.awaitStatus(run, "COMPLETED");

        JsonNode detail = api.read(get("/api/v1/runs/" + run));
        assertThat(detail.at("/outputs/refund/why").asString()).isEqualTo("card network down");
        assertThat(detail.get("outputs").has("ship")).isFalse();
        assertThat(detail.get("nodes")).filteredOn(node -> node.get("node").asString().equals("charge"))
                .singleElement().satisfies(node -> {
                    assertThat(node.get("status").asString()).isEqualTo("FAILED");
                    assertThat(node.at("/error/message").asString()).isEqualTo("card network down");
                });
        assertThat(eventTypesOnceEnded(run)).containsSubsequence("node.retrying", "node.failed", "token.emitted",
                "node.completed", "run.completed").doesNotContain("run.failed");
        assertThat(api.read(get("/api/v1/runs/" + run + "/replay")).get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void refusesOnFailurePathsThatCannotHold() throws Exception {
        String document = """
                {"name": "catch-bad-%s", "nodes": [
                  {"id": "a", "type": "function", "config": {"function": "noop"},
                   "on_failure": {"action": "path", "next_nodes": ["nowhere"]}},
                  {"id": "b", "type": "function", "config": {"function": "noop"},
                   "on_failure": {"action": "dlq", "next_nodes": ["a"]}},
                  {"id": "c", "type": "function", "config": {"function": "noop"}, "on_failure": {"action": "path"}},
                  {"id": "h", "type": "human", "human": {"approvers": ["role:approver"]},
                   "on_failure": {"action": "path", "next_nodes": ["a"]}}],
                 "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "h"}]}"""
                .formatted(UUID.randomUUID());
        JsonNode problem = JSON.readTree(api.call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                .content(document)).andExpect(status().isUnprocessableContent()).andReturn().getResponse()
                .getContentAsString());
        assertThat(problem.get("diagnostics")).extracting(diagnostic -> diagnostic.get("pointer").asString())
                .contains("/nodes/0/on_failure/next_nodes/0", "/nodes/1/on_failure/next_nodes",
                        "/nodes/2/on_failure/next_nodes", "/nodes/3/on_failure");
    }

    @Test
    void refusesRetryOnAHumanNodeABackoffAboveItsMaximumAndLimitsThatWouldDoNothing() throws Exception {
        String human = """
                {"name": "retry-human-%s", "nodes": [
                  {"id": "ok", "type": "human", "human": {"approvers": ["role:approver"]},
                   "retry": {"max_attempts": 2}},
                  {"id": "t", "type": "function", "config": {"function": "noop"},
                   "retry": {"backoff_ms": 5000, "max_backoff_ms": 100}, "limits": {"deadline_s": 2}}],
                 "edges": [{"from": "ok", "to": "t"}]}""".formatted(UUID.randomUUID());
        JsonNode problem = JSON.readTree(api.call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                .content(human)).andExpect(status().isUnprocessableContent()).andReturn().getResponse()
                .getContentAsString());
        assertThat(problem.get("diagnostics")).extracting(diagnostic -> diagnostic.get("pointer").asString())
                .contains("/nodes/0/retry", "/nodes/1/retry/max_backoff_ms", "/nodes/1/limits/deadline_s");
    }

    private List<String> eventTypesOnceEnded(UUID run) {
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? "
                + "and event_type in ('run.completed', 'run.failed')").param(run).query(Long.class).single() == 1);
        return eventTypes(run);
    }

    /** When Redis added the stream entry: the milliseconds of its id. */
    private static long addedAt(StreamMessage<String, String> entry) {
        return Long.parseLong(entry.getId().substring(0, entry.getId().indexOf('-')));
    }
}
