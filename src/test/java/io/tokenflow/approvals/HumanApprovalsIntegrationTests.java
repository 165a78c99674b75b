package io.tokenflow.approvals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import io.tokenflow.IntegrationTest;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.runs.RunHistory;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.security.Caller;
import io.tokenflow.security.Role;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.ForbiddenException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Human nodes on the real engine: a token reaching one creates an approval and the run waits (counter 0, not
 * complete); only a listed approver decides, once; approve follows the node's edges with the decision in the next
 * node's input, reject follows the rejection path; a timed-out approval escalates.
 */
@IntegrationTest
@AutoConfigureMockMvc
class HumanApprovalsIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Caller APPROVER = new Caller("ada", Set.of(Role.APPROVER), Set.of(), Optional.empty());
    private static final Caller ADMIN = new Caller("root", Set.of(Role.ADMIN), Set.of(), Optional.empty());

    @Autowired MockMvc mvc;
    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired ApprovalQueries approvals;
    @Autowired DecideApproval deciding;
    @Autowired ApprovalTimeouts timeouts;
    @Autowired RunTerminator terminator;
    @Autowired RunHistory history;

    @Test
    void approvalPausesTheRunUntilAnApproverApproves() throws Exception {
        UUID run = start("valid/hitl-approval", "{\"deal_value\": 250000}");
        ApprovalRecord approval = awaitPending(run);
        assertThat(approval.title()).isEqualTo("Approve enterprise deal");
        assertThat(approval.instructions()).isEqualTo("Check the deal against the credit line.");
        assertThat(approval.approvers()).containsExactly("role:approver");
        assertThat(approval.payload().path("deal_value").asInt()).isEqualTo(250000);
        assertThat(runStatus(run)).isEqualTo("RUNNING");
        assertThat(allPending(APPROVER)).extracting(ApprovalRecord::id).contains(approval.id());
        assertThat(allPending(ADMIN)).extracting(ApprovalRecord::id).doesNotContain(approval.id());

        decide(approval.id(), "{\"decision\": \"maybe\"}", "ada", "APPROVER").andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.pointer").value("/decision"));
        decide(approval.id(), "{\"decision\": \"approve\"}", "dan", "DESIGNER").andExpect(status().isForbidden());
        // a misspelt member is refused, not ignored (an approval without its comment)
        decide(approval.id(), "{\"decision\": \"approve\", \"coment\": \"ok\"}", "ada", "APPROVER")
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/coment"));
        decide(approval.id(), "{\"decision\": 7}", "ada", "APPROVER").andExpect(status().isUnprocessableContent());
        decide(approval.id(), "{\"decision\": \"approve\"}", "root", "ADMIN")
                .andExpect(status().isForbidden())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("role:approver")));
        decide(approval.id(), "{\"decision\": \"approve\", \"comment\": \"Good margin\"}", "ada", "APPROVER")
                .andExpect(status().isOk()).andExpect(jsonPath("$.status").value("APPROVED"));
        decide(approval.id(), "{\"decision\": \"reject\", \"comment\": \"too late\"}", "ada", "APPROVER")
                .andExpect(status().isConflict());

        awaitStatus(run, "COMPLETED");
        JsonNode next = nodeInput(run, "setup_enterprise_account");
        assertThat(next.path("deal_value").asInt()).isEqualTo(250000);
        assertThat(next.path("approval").path("decision").asString()).isEqualTo("approve");
        assertThat(next.path("approval").path("decided_by").asString()).isEqualTo("ada");
        assertThat(next.path("approval").path("comment").asString()).isEqualTo("Good margin");
        ApprovalRecord decided = approvals.find(approval.id()).orElseThrow();
        assertThat(decided.status()).isEqualTo("APPROVED");
        assertThat(decided.decidedBy()).isEqualTo("ada");
        assertThat(eventTypes(run)).containsSubsequence("token.emitted", "approval.requested", "approval.decided",
                "token.emitted", "node.completed", "run.completed");
        assertThat(replayedStatus(run)).isEqualTo("COMPLETED");
    }

    @Test
    void rejectFollowsTheRejectionPath() {
        UUID run = start("valid/hitl-approval", "{\"deal_value\": 10}");
        ApprovalRecord approval = awaitPending(run);
        deciding.decide(approval.id(), "reject", "Too small", APPROVER);
        awaitStatus(run, "COMPLETED");
        assertThat(completedNodes(run)).contains("notify_rejection").doesNotContain("setup_enterprise_account");
        assertThat(nodeInput(run, "notify_rejection").path("approval").path("decision").asString())
                .isEqualTo("reject");
    }

    @Test
    void aTimedOutApprovalEscalatesToItsEscalationGroup() {
        UUID run = start("engine/hitl-quick", "{\"deal_value\": 99}");
        ApprovalRecord approval = awaitPending(run);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            timeouts.applyDue();
            return approvals.find(approval.id()).orElseThrow().escalationLevel() == 1;
        });
        ApprovalRecord escalated = approvals.find(approval.id()).orElseThrow();
        assertThat(escalated.approvers()).containsExactly("role:admin");
        assertThat(escalated.timeoutAt()).isNull();
        assertThatThrownBy(() -> deciding.decide(approval.id(), "approve", null, APPROVER))
                .isInstanceOf(ForbiddenException.class);
        deciding.decide(approval.id(), "approve", "Escalated and approved", ADMIN);
        awaitStatus(run, "COMPLETED");
        assertThat(eventTypes(run)).containsSubsequence("approval.requested", "approval.escalated", "approval.decided");
    }

    @Test
    void aHumanEntryNodeAsksBeforeAnythingRuns() {
        UUID run = start("engine/human-entry", "{\"amount\": 120}");
        ApprovalRecord approval = awaitPending(run);
        assertThat(approval.title()).isEqualTo("Release the payment?");
        assertThat(approval.payload().path("amount").asInt()).isEqualTo(120);
        assertThat(runStatus(run)).isEqualTo("RUNNING");
        assertThat(completedNodes(run)).isEmpty();

        deciding.decide(approval.id(), "approve", "Checked", APPROVER);
        awaitStatus(run, "COMPLETED");
        assertThat(nodeInput(run, "after").path("approval").path("comment").asString()).isEqualTo("Checked");
        assertThat(eventTypes(run)).containsSubsequence("run.started", "token.emitted", "approval.requested",
                "approval.decided", "node.completed", "run.completed");
        assertThat(replayedStatus(run)).isEqualTo("COMPLETED");
    }

    @Test
    void aHumanNodeThatWaitsForAllItsDependenciesAsksOnceWithAllTheirOutputs() {
        UUID run = start("engine/human-join", "{}");
        ApprovalRecord approval = awaitPending(run);
        assertThat(approval.nodeId()).isEqualTo("review");
        assertThat(approval.payload().path("credit").path("score").asInt()).isEqualTo(710);
        assertThat(approval.payload().path("stock").path("available").asBoolean()).isTrue();
        assertThat(allPending(null).stream().filter(pending -> pending.runId().equals(run))).hasSize(1);

        deciding.decide(approval.id(), "approve", null, APPROVER);
        awaitStatus(run, "COMPLETED");
        assertThat(completedNodes(run)).contains("credit", "stock", "review", "ship");
        assertThat(eventTypes(run)).containsSubsequence("join.completed", "token.emitted", "approval.requested",
                "approval.decided", "node.completed", "run.completed");
        assertThat(replayedStatus(run)).isEqualTo("COMPLETED");
    }

    @Test
    void cancellingARunCancelsItsPendingApprovals() {
        UUID run = start("valid/hitl-approval", "{\"deal_value\": 5}");
        ApprovalRecord approval = awaitPending(run);
        assertThat(terminator.cancel(run, "ops")).isTrue();
        awaitStatus(run, "CANCELLED");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "CANCELLED".equals(approvals.find(approval.id()).orElseThrow().status()));
        assertThatThrownBy(() -> deciding.decide(approval.id(), "approve", null, APPROVER))
                .isInstanceOf(ConflictException.class);
    }

    private ResultActions decide(UUID approval, String body, String user, String... roles) throws Exception {
        return mvc.perform(post("/api/v1/approvals/" + approval + "/decide").contentType(MediaType.APPLICATION_JSON)
                .content(body).with(user(user).roles(roles)).with(csrf()));
    }

    private UUID start(String fixture, String inputs) {
        try (var in = getClass().getResourceAsStream("/workflows/" + fixture + ".json")) {
            ObjectNode dsl = (ObjectNode) JSON.readTree(in);
            dsl.put("name", dsl.get("name").asString() + "-" + UUID.randomUUID().toString().substring(0, 8));
            String name = creating.create(dsl, "test").name();
            return starting.start(new StartRunCommand(name, null, null, JSON.readTree(inputs), null), "test").id();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ApprovalRecord awaitPending(UUID run) {
        await().atMost(Duration.ofSeconds(30)).until(() -> allPending(null).stream()
                .anyMatch(approval -> approval.runId().equals(run)));
        return allPending(null).stream().filter(approval -> approval.runId().equals(run)).findFirst()
                .orElseThrow();
    }

    private String runStatus(UUID run) {
        return jdbc.sql("select status from runs where id = :id").param("id", run).query(String.class).single();
    }

    private void awaitStatus(UUID run, String status) {
        await().atMost(Duration.ofSeconds(30)).until(() -> status.equals(runStatus(run)));
    }

    private JsonNode nodeInput(UUID run, String node) {
        return jdbc.sql("select output::text from node_executions where run_id = :id and node_id = :node")
                .param("id", run).param("node", node).query(String.class).optional().map(JSON::readTree).orElseThrow();
    }

    private List<String> completedNodes(UUID run) {
        return jdbc.sql("select node_id from node_executions where run_id = :id and status = 'COMPLETED'")
                .param("id", run).query(String.class).list();
    }

    private List<String> eventTypes(UUID run) {
        return jdbc.sql("select event_type from event_log where run_id = :id order by seq").param("id", run)
                .query(String.class).list();
    }

    private String replayedStatus(UUID run) {
        return history.replay(run, null).status();
    }

    /** Every pending approval (of the caller's, when given), oldest first: all pages at once. */
    private List<ApprovalRecord> allPending(Caller caller) {
        return approvals.pending(caller, 0, Integer.MAX_VALUE);
    }
}
