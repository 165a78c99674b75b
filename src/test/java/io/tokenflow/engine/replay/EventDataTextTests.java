package io.tokenflow.engine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

/** Every event's writer ({@code data(...)}) against its reader: the text a writer makes reads back as what it wrote. */
class EventDataTextTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ODD = "say \"hi\" \\ naïve 😀\n\u0001";

    @Test
    void quotesEveryTextAsTheJsonStringThatReadsBackAsIt() {
        List<String> texts = List.of("", "n1", "xekTZh4-7818wlD67EeQEA", "vm-6239-function-3", "naïve café 日本 😀",
                "say \"hi\"", "back\\slash", "line\nbreak", "tab\tand\r", "\u0000nul and \u001f unit separator",
                "a/b </script>", "\u2028 line separator");
        for (String text : texts) {
            String quoted = EventDataText.quote(text);
            assertThat(quoted).as(text).isEqualTo(JSON.writeValueAsString(text));
            assertThat(JSON.readValue(quoted, String.class)).isEqualTo(text);
        }
        assertThat(EventDataText.quote(null)).isEqualTo("null");
    }

    @Test
    void tokenEmittedReadsBackAsWritten() {
        TokenEmitted event = (TokenEmitted) read("token.emitted", "B", TokenEmitted.data("A", ODD, 3, true));
        assertThat(event.from()).isEqualTo("A");
        assertThat(event.parent()).isEqualTo(ODD);
        assertThat(event.iteration()).isEqualTo(3);
        assertThat(event.join()).isTrue();
        TokenEmitted entry = (TokenEmitted) read("token.emitted", "A", TokenEmitted.data(null, null, 0, false));
        assertThat(entry.from()).isNull();
        assertThat(entry.join()).isFalse();
    }

    @Test
    void nodeCompletedAndFailedReadBackAsWritten() {
        NodeCompleted completed = (NodeCompleted) read("node.completed", "B", NodeCompleted.data(2, ODD,
                1_763_780_000_123L, true, "{\"branch\":{\"rule\":0}}", "{\"x\":[1,2]}"));
        assertThat(completed.iteration()).isEqualTo(2);
        assertThat(completed.worker()).isEqualTo(ODD);
        assertThat(completed.startedAt().toEpochMilli()).isEqualTo(1_763_780_000_123L);
        assertThat(completed.terminal()).isTrue();
        assertThat(completed.output()).isEqualTo(JSON.readTree("{\"x\":[1,2]}"));
        assertThat(completed.header().data().at("/route/branch/rule").asInt()).isZero();

        NodeFailed failed = (NodeFailed) read("node.failed", "B", NodeFailed.data(0, "w", null,
                NodeFailed.routingError(ODD), List.of("handle")));
        assertThat(failed.error().path("message").asString()).isEqualTo(ODD);
        assertThat(failed.error().path("kind").asString()).isEqualTo("routing");
        assertThat(failed.worker()).isEqualTo("w");
        assertThat(failed.header().data().path("next_nodes").get(0).asString()).isEqualTo("handle");
        NodeFailed uncaught = (NodeFailed) read("node.failed", "B", NodeFailed.data(0, "w", 5L, "{\"message\":\"x\"}",
                null));
        assertThat(uncaught.header().data().has("next_nodes")).isFalse();
    }

    @Test
    void approvalEventsReadBackAsWritten() {
        String id = UUID.randomUUID().toString();
        ApprovalRequested requested = (ApprovalRequested) read("approval.requested", "H", ApprovalRequested.data(id, 1,
                List.of("role:approver", ODD), 99L, "escalate", List.of("role:admin"), ODD, null, "{\"a\":1}"));
        assertThat(requested.approvalId()).isEqualTo(id);
        assertThat(requested.iteration()).isEqualTo(1);
        assertThat(requested.header().data().path("approvers").get(1).asString()).isEqualTo(ODD);
        assertThat(requested.header().data().path("input").path("a").asInt()).isEqualTo(1);

        ApprovalEscalated escalated = (ApprovalEscalated) read("approval.escalated", "H",
                ApprovalEscalated.data(id, 1, 2, List.of("role:admin"), null));
        assertThat(escalated.approvers()).containsExactly("role:admin");
        assertThat(escalated.level()).isEqualTo(2);

        ApprovalDecided approved = (ApprovalDecided) read("approval.decided", "H", ApprovalDecided.data(id, 1, true,
                "ada", false, ODD, List.of("next"), "{\"approval\":{\"decision\":\"approve\"}}"));
        assertThat(approved.decision()).isEqualTo("approve");
        assertThat(approved.decidedBy()).isEqualTo("ada");
        assertThat(approved.output().at("/approval/decision").asString()).isEqualTo("approve");
        assertThat(approved.error()).isNull();
        assertThat(approved.header().data().path("comment").asString()).isEqualTo(ODD);

        ApprovalDecided rejected = (ApprovalDecided) read("approval.decided", "H", ApprovalDecided.data(id, 1, false,
                "system", true, null, List.of(), null));
        assertThat(rejected.decision()).isEqualTo("reject");
        assertThat(rejected.automatic()).isTrue();
        assertThat(rejected.error().path("kind").asString()).isEqualTo("rejected");
    }

    @Test
    void runEventsReadBackAsWritten() {
        UUID workflow = UUID.randomUUID();
        RunStarted started = (RunStarted) read("run.started", null, RunStarted.data(workflow, 3, 0, "main",
                JSON.readTree("{\"note\":\"x\"}"), ODD, "key-1", List.of("A", "B")));
        assertThat(started.workflowId()).isEqualTo(workflow);
        assertThat(started.workflowVersion()).isEqualTo(3);
        assertThat(started.tag()).isEqualTo("main");
        assertThat(started.inputs().path("note").asString()).isEqualTo("x");
        assertThat(started.submittedBy()).isEqualTo(ODD);
        assertThat(started.idempotencyKey()).isEqualTo("key-1");
        assertThat(started.entryNodes()).containsExactly("A", "B");

        RunPatched patched = (RunPatched) read("run.patched", null, RunPatched.data(2, ODD,
                JSON.readTree("[{\"op\":\"remove\",\"path\":\"/nodes/1\"}]"), List.of(), List.of("C")));
        assertThat(patched.revision()).isEqualTo(2);
        assertThat(patched.author()).isEqualTo(ODD);
        assertThat(patched.header().data().path("removed_nodes").get(0).asString()).isEqualTo("C");

        assertThat(((RunFailed) read("run.failed", null, withDropped(RunFailed.data(ODD)))).reason()).isEqualTo(ODD);
        assertThat(((RunCancelled) read("run.cancelled", null, withDropped(RunCancelled.data("olga")))).by())
                .isEqualTo("olga");

        RunResumed resumed = (RunResumed) read("run.resumed", null, RunResumed.data(ODD, 41,
                java.util.Map.of("t\"1", "t2")));
        assertThat(resumed.by()).isEqualTo(ODD);
        assertThat(resumed.resumes()).isEqualTo(41);
        assertThat(resumed.redone()).containsExactly(java.util.Map.entry("t\"1", "t2"));
        JoinArrived arrived = (JoinArrived) read("join.arrived", "D", JoinArrived.data(ODD, 2, 1, 3));
        assertThat(arrived.from()).isEqualTo(ODD);
        assertThat(arrived).extracting(JoinArrived::iteration, JoinArrived::arrived, JoinArrived::expected)
                .containsExactly(2, 1, 3);
    }

    /** As end-run.lua completes the data of an ending it makes. */
    private static String withDropped(String data) {
        return data.substring(0, data.length() - 1) + ",\"dropped\":2}";
    }

    @Test
    void entryQuarantinedReadsBackAsWrittenAndChangesNoReplay() {
        EntryQuarantined quarantined = (EntryQuarantined) read("entry.quarantined", null,
                EntryQuarantined.data(42, "1795751441781-0"));
        assertThat(quarantined.quarantineId()).isEqualTo(42);
        assertThat(quarantined.entryId()).isEqualTo("1795751441781-0");
        assertThat(EntryQuarantined.of(1, quarantined.at(), 42, "1795751441781-0")).isEqualTo(quarantined);
        assertThat(RunReplay.replay(List.of(quarantined))).usingRecursiveComparison().ignoringFields("lastSeq")
                .isEqualTo(RunReplay.replay(List.of()));
    }

    private static RunEvent read(String type, String node, String data) {
        String event = "[{\"seq\":1,\"type\":\"" + type + "\",\"at\":1763780000123,\"node\":"
                + EventDataText.quote(node) + ",\"token\":" + (node == null ? "null" : "\"t1\"") + ",\"data\":" + data
                + "}]";
        List<RunEvent> events = RunEvents.parse(event, JSON);
        assertThat(events).hasSize(1);
        return events.get(0);
    }
}
