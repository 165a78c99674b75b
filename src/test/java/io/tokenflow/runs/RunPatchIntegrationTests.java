package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import io.tokenflow.approvals.ApprovalQueries;
import io.tokenflow.approvals.ApprovalRecord;
import io.tokenflow.approvals.DecideApproval;
import io.tokenflow.coordinator.RunRevisions;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.security.Caller;
import io.tokenflow.security.Role;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The run patch API on a run paused at a human approval: every bad patch is a clear 4xx that leaves the run as it
 * was; a good one becomes the run's next revision, the coordinator routes with it, and the run's event log replays
 * to the state the run ended in.
 */
@IntegrationTest
@AutoConfigureMockMvc
class RunPatchIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ADD_AUDIT = """
            [{"op": "add", "path": "/nodes/-", "value": {"id": "audit", "type": "function", "config": {"function": "echo"}}},
             {"op": "add", "path": "/edges/-", "value": {"from": "setup_enterprise_account", "to": "audit"}}]""";

    @Autowired MockMvc mvc;
    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired ApprovalQueries approvals;
    @Autowired DecideApproval deciding;
    @Autowired RunHistory history;
    @Autowired JdbcClient jdbc;
    @Autowired RunRevisions runRevisions;

    @Test
    void refusesBadPatchesAndLeavesTheRunAsItWas() throws Exception {
        UUID run = pausedRun();
        patch(run, null, ADD_AUDIT).andExpect(status().isPreconditionRequired());
        patch(run, "\"3\"", ADD_AUDIT).andExpect(status().isConflict()).andExpect(jsonPath("$.revision").value(0));
        patch(run, "\"0\"", "[{\"op\": \"test\", \"path\": \"/name\", \"value\": \"nope\"}]")
                .andExpect(status().isConflict()).andExpect(jsonPath("$.type", containsString("patch-test-failed")));
        patch(run, "\"0\"", "[{\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"from\": \"audit\", \"to\": \"x\"}}]")
                .andExpect(status().isUnprocessableContent()).andExpect(jsonPath("$.diagnostics").isArray());
        patch(run, "\"0\"", "[{\"op\": \"remove\", \"path\": \"/nodes/1\"}, "
                + "{\"op\": \"replace\", \"path\": \"/edges\", \"value\": [{\"from\": \"validate_high_value_deal\", "
                + "\"to\": \"setup_enterprise_account\"}]}]")
                .andExpect(status().isConflict()).andExpect(jsonPath("$.detail", containsString("manager_approval")));
        patch(run, "\"0\"", "{\"op\": \"add\"}").andExpect(status().isBadRequest());
        // an empty patch changed nothing yet took a revision and one of the run's patches
        patch(run, "\"0\"", "[]").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("Expected a run patch to have at least one operation, but it has none"));
        // a short patch that would make a huge document: each copy of /blob into itself doubles it (4 MB)
        StringBuilder doubling = new StringBuilder("[{\"op\": \"add\", \"path\": \"/blob\", \"value\": {\"s\": \""
                + "x".repeat(1000) + "\"}}");
        for (int i = 0; i < 12; i++) {
            doubling.append(", {\"op\": \"copy\", \"from\": \"/blob\", \"path\": \"/blob/c").append(i).append("\"}");
        }
        patch(run, "\"0\"", doubling.append("]").toString()).andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].code").value("too-large"))
                .andExpect(jsonPath("$.diagnostics[0].message", containsString("tokenflow.limits.max-document-bytes")));
        assertThat(revisions(run)).isZero();
    }

    /** The supervisor writes a run's row moments after the run starts; a patch may come first (an agent's, at once). */
    @Test
    void recordsARevisionOfARunWhoseRowTheSupervisorHasNotWrittenYet() {
        UUID run = UUID.randomUUID();

        runRevisions.insert(run, 1, "{}", "{}", "[]", "agent:first-node", Instant.now());

        assertThat(runRevisions.definition(run, 1)).contains("{}");
        assertThat(jdbc.sql("select count(*) from runs where id = :run").param("run", run).query(Long.class).single())
                .isZero();
        runRevisions.delete(run, 1);
    }

    @Test
    void aPatchBecomesTheRunsNextRevisionAndItsNewNodeRuns() throws Exception {
        UUID run = pausedRun();
        patch(run, "\"0\"", ADD_AUDIT).andExpect(status().isOk()).andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.revision").value(1)).andExpect(jsonPath("$.addedNodes[0]").value("audit"));
        patch(run, "\"0\"", ADD_AUDIT).andExpect(status().isConflict());

        ApprovalRecord approval = allPending(null).stream().filter(a -> a.runId().equals(run)).findFirst()
                .orElseThrow();
        deciding.decide(approval.id(), "approve", null,
                new Caller("ada", Set.of(Role.APPROVER), Set.of(), Optional.empty()));
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(runStatus(run)));

        assertThat(completed(run)).contains("audit");
        assertThat(eventTypes(run)).contains("run.patched");
        assertThat(jdbc.sql("select ir_revision from runs where id = :id").param("id", run).query(Integer.class)
                .single()).isEqualTo(1);
        RunViews.Replay replay = history.replay(run, null);
        assertThat(replay.status()).isEqualTo("COMPLETED");
        assertThat(replay.counter()).isZero();
        JsonNode stored = JSON.readTree(jdbc.sql("select outputs::text from runs where id = :id").param("id", run)
                .query(String.class).single());
        assertThat((JsonNode) JSON.valueToTree(replay.outputs())).isEqualTo(stored);
        assertThat(stored.has("audit")).isTrue();

        patch(run, "\"1\"", "[{\"op\": \"remove\", \"path\": \"/description\"}]").andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail", containsString("ended")));
    }

    private UUID pausedRun() {
        String name = TestWorkflows.unique("patched-hitl");
        creating.create(JSON.readTree(TestWorkflows.fixture("valid/hitl-approval", name)), "test");
        UUID run = starting.start(new StartRunCommand(name, null, null, JSON.readTree("{\"deal_value\": 7}"), null),
                "test").id();
        await().atMost(Duration.ofSeconds(30)).until(() -> allPending(null).stream()
                .anyMatch(approval -> approval.runId().equals(run)));
        return run;
    }

    private ResultActions patch(UUID run, String ifMatch, String body) throws Exception {
        var request = post("/api/v1/runs/" + run + "/patch").contentType("application/json-patch+json").content(body)
                .with(user("olga").roles("OPERATOR")).with(csrf());
        if (ifMatch != null) {
            request = request.header("If-Match", ifMatch);
        }
        return mvc.perform(request);
    }

    private int revisions(UUID run) {
        return jdbc.sql("select count(*) from run_ir_revisions where run_id = :id").param("id", run)
                .query(Integer.class).single();
    }

    private String runStatus(UUID run) {
        return jdbc.sql("select status from runs where id = :id").param("id", run).query(String.class).single();
    }

    private List<String> completed(UUID run) {
        return jdbc.sql("select node_id from node_executions where run_id = :id and status = 'COMPLETED'")
                .param("id", run).query(String.class).list();
    }

    private List<String> eventTypes(UUID run) {
        return jdbc.sql("select event_type from event_log where run_id = :id order by seq").param("id", run)
                .query(String.class).list();
    }

    /** Every pending approval (of the caller's, when given), oldest first: all pages at once. */
    private List<ApprovalRecord> allPending(Caller caller) {
        return approvals.pending(caller, 0, Integer.MAX_VALUE);
    }
}
