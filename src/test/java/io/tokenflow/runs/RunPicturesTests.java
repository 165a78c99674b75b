package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

import io.tokenflow.engine.compiler.WorkflowCompiler;
import io.tokenflow.engine.conditions.ConditionEngine;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.replay.EventScript;
import io.tokenflow.engine.types.BuiltInNodeTypes;
import io.tokenflow.live.LiveEvent;
import io.tokenflow.live.LiveLinkBuilder;
import io.tokenflow.live.LiveTemplates;
import io.tokenflow.live.RunLog;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The run page's picture from hand-built events, and its fragments rendered by the page's own template: approvals on
 * human nodes (requested, escalated, decided), joins, loop passes, branch decisions, errors and time travel.
 */
class RunPicturesTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final UUID RUN = UUID.fromString("5b0c3a54-4d2c-4d0b-9a0e-0c6c6d1f0a01");
    private static final UUID WORKFLOW = UUID.fromString("1c7f3a54-4d2c-4d0b-9a0e-0c6c6d1f0a02");

    private final WorkflowIr hitl = compile("valid/hitl-approval");

    @Test
    void showsAPendingApprovalOnTheHumanNodeUntilItIsDecided() {
        ArrayNode events = approvalRun();
        RunPicture waiting = draw(hitl, events);
        RunPicture.NodeView human = node(waiting, "manager_approval");
        assertThat(human.approval().pending()).isTrue();
        assertThat(human.approval().approvers()).containsExactly("alice", "role:approver");
        assertThat(waiting.pendingApprovals()).extracting(ApprovalTrack.Approval::title)
                .containsExactly("Approve enterprise deal");
        assertThat(waiting.status()).isEqualTo("RUNNING");
        assertThat(waiting.counter()).as("the token that reached the human node is consumed").isZero();
        String fragments = render(waiting);
        assertThat(fragments).contains("hx-swap-oob=\"true\"", "awaiting approval (alice, role:approver)",
                "Approve enterprise deal", "data-approval=\"pending\"", "approval requested from alice, role:approver");

        add(events, "approval.escalated", "manager_approval", "{\"approval_id\": \"ap-1\", \"approvers\": [\"role:admin\"],"
                + " \"level\": 1, \"timeout_at\": 1763790000000}");
        RunPicture escalated = draw(hitl, events);
        assertThat(node(escalated, "manager_approval").approval().approvers()).containsExactly("role:admin");
        assertThat(render(escalated)).contains("(escalated, level 1)", "approval escalated to role:admin (level 1)");

        add(events, "approval.decided", "manager_approval", "{\"approval_id\": \"ap-1\", \"iteration\": 0, "
                + "\"decision\": \"approve\", \"decided_by\": \"carol\", \"comment\": \"fine\", \"automatic\": false, "
                + "\"next_nodes\": [\"setup_enterprise_account\"]}");
        RunPicture decided = draw(hitl, events);
        assertThat(decided.pendingApprovals()).isEmpty();
        assertThat(node(decided, "manager_approval").approval().state()).isEqualTo("approved");
        assertThat(render(decided)).contains("approved by carol", "approved by carol: \u201cfine\u201d")
                .doesNotContain("awaiting approval");
    }

    @Test
    void replaysTheEventsAroundApprovalEventsAndTravelsBackInTime() {
        ArrayNode events = approvalRun();
        add(events, "approval.decided", "manager_approval", "{\"approval_id\": \"ap-1\", \"decision\": \"reject\", "
                + "\"automatic\": true, \"next_nodes\": [\"notify_rejection\"]}");
        ArrayNode after = EventScript.events().emitted("manager_approval", "notify_rejection", "t3", "t2")
                .completed("notify_rejection", "t3", "{\"told\": true}").runCompleted().json();
        after.forEach(event -> add(events, event.get("type").asString(), event.path("node").asString(null),
                event.path("token").asString(null), event.get("data").toString()));

        RunPicture end = draw(hitl, events);
        assertThat(end.status()).isEqualTo("COMPLETED");
        assertThat(end.counter()).isZero();
        assertThat(node(end, "notify_rejection").status()).isEqualTo("completed");
        assertThat(node(end, "setup_enterprise_account").status()).isEqualTo("not-reached");
        assertThat(render(end)).contains("rejected automatically (timeout)");

        RunPicture early = RunPictures.draw(RUN, "hitl", hitl, live(events), 3, 0);
        assertThat(early.seq()).isEqualTo(3);
        assertThat(early.lastSeq()).isEqualTo(events.size());
        assertThat(early.atEnd()).isFalse();
        assertThat(node(early, "validate_high_value_deal").status()).isEqualTo("completed");
        assertThat(node(early, "manager_approval").status()).isEqualTo("not-reached");
        assertThat(early.hops()).extracting(RunPicture.HopView::to).containsExactly("validate_high_value_deal");
        assertThat(render(early)).contains("Showing the run as it was after event 3 of " + events.size());
    }

    @Test
    void drawsJoinArrivalsLoopPassesBranchDecisionsAndErrorsAtTheirNodes() {
        WorkflowIr diamond = compile("valid/fan-out-fan-in");
        ArrayNode events = EventScript.events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "t1", null)
                .completed("A", "t1", "{}").emitted("A", "B", "t2", "t1").emitted("A", "C", "t3", "t1")
                .completed("B", "t2", "{}").parked("B", "D", "t4", "t2").arrived("D", "t4", "B", 1, 2)
                .failed("C", "t3", "Expected C to succeed, but it did not").json();
        ((ObjectNode) events.get(2).get("data")).set("route", JSON.readTree(
                "{\"loop\": {\"pass\": 3, \"max_iterations\": 5, \"action\": \"again\"}, "
                        + "\"branch\": {\"rule\": 0, \"name\": \"big\", \"next_nodes\": [\"B\", \"C\"]}}"));
        RunPicture picture = draw(diamond, events);
        assertThat(node(picture, "D").join()).isEqualTo("1/2");
        assertThat(node(picture, "A").loop()).isEqualTo("3/5 again");
        assertThat(node(picture, "A").branch()).isEqualTo("\u2192 B, C (rule 'big')");
        assertThat(node(picture, "C").status()).isEqualTo("failed");
        assertThat(node(picture, "C").error()).isEqualTo("Expected C to succeed, but it did not");
        assertThat(render(picture)).contains("data-join=\"1/2\"", "joined 1/2", "loop 3/5 again",
                "Expected C to succeed, but it did not", "data-error=\"true\"");
    }

    @Test
    void drawsTheGraphOfTheRevisionTheRunFollowsWithThePathTakenAndTheRejectionPath() {
        ArrayNode events = approvalRun();
        add(events, "run.patched", null, "{\"revision\": 1, \"author\": \"olga\", \"patch\": [], "
                + "\"added_nodes\": [\"notify_rejection\"], \"removed_nodes\": []}");
        add(events, "approval.decided", "manager_approval", "{\"approval_id\": \"ap-1\", \"decision\": \"reject\", "
                + "\"automatic\": true, \"next_nodes\": [\"notify_rejection\"]}");
        add(events, "token.emitted", "notify_rejection", "{\"from\": \"manager_approval\", \"iteration\": 0}");
        JsonNode definition = JSON.readTree("{\"nodes\": [{\"id\": \"manager_approval\", \"ui\": {\"x\": 40, "
                + "\"y\": 120}}]}");
        RunPicture picture = RunPictures.draw(RUN, "hitl", live(events), Long.MAX_VALUE, 0, patchedOnce(definition));

        assertThat(picture.graph().revision()).isEqualTo(1);
        assertThat(picture.graph().edges()).contains(
                new RunGraph.Edge("validate_high_value_deal", "manager_approval", "static", true),
                new RunGraph.Edge("manager_approval", "setup_enterprise_account", "static", false),
                new RunGraph.Edge("manager_approval", "notify_rejection", "rejection", true));
        RunGraph.Node human = picture.graph().nodes().stream().filter(node -> node.id().equals("manager_approval"))
                .findFirst().orElseThrow();
        assertThat(human.x()).isEqualTo(40.0);
        assertThat(human.y()).isEqualTo(120.0);
        assertThat(node(picture, "notify_rejection").added()).isTrue();
        assertThat(node(picture, "manager_approval").added()).isFalse();
        assertThat(render(picture)).contains("id=\"run-graph-data\"", "data-revision=\"1\"", "added by patch",
                "data-kind=\"rejection\" data-travelled=\"true\"", "revision 1 by olga: added notify_rejection");
        RunPicture before = RunPictures.draw(RUN, "hitl", live(events), 4, 0, patchedOnce(definition));
        assertThat(before.graph().revision()).as("time travel draws the revision of its moment").isZero();
    }

    @Test
    void aLaterPushSwapsInPlaceOnlyTheEdgesATokenTravelledSinceThePageWasDrawn() {
        ArrayNode events = EventScript.events().runStarted(WORKFLOW, "{\"deal_value\": 50000}",
                "validate_high_value_deal").emitted(null, "validate_high_value_deal", "t1", null).json();
        RunPicture shown = draw(hitl, events);
        add(events, "node.completed", "validate_high_value_deal", "{\"iteration\": 0, \"output\": {}}");
        add(events, "token.emitted", "manager_approval", "{\"from\": \"validate_high_value_deal\", "
                + "\"parent\": \"t1\", \"iteration\": 0}");
        RunPicture now = draw(hitl, events);

        int travelled = now.graph().edges().indexOf(new RunGraph.Edge("validate_high_value_deal", "manager_approval",
                "static", true));
        assertThat(travelled).isNotNegative();
        String push = fragments().changes(now, shown);
        assertThat(push).doesNotContain("id=\"run-graph-data\"").contains("id=\"run-edge-" + travelled + "\"",
                "data-from=\"validate_high_value_deal\" data-to=\"manager_approval\" data-kind=\"static\" "
                        + "data-travelled=\"true\"");
        assertThat(push.split("class=\"graph-edge\"", -1)).as("one edge in the push: " + push).hasSize(2);
        assertThat(render(shown)).as("the page's edge has the id the push swaps")
                .contains("id=\"run-edge-" + travelled + "\"");
    }

    /** The revisions of a run whose one patch added notify_rejection (and placed the human node). */
    private java.util.function.Function<java.util.List<LiveEvent>, RunWorkflowRevisions.Revision> patchedOnce(
            JsonNode definition) {
        return seen -> seen.stream().anyMatch(event -> "run.patched".equals(event.type()))
                ? new RunWorkflowRevisions.Revision(1, hitl, definition, java.util.Set.of("notify_rejection"))
                : new RunWorkflowRevisions.Revision(0, hitl, null, java.util.Set.of());
    }

    /** A run that reached the human node and asked alice (or an approver) to decide. */
    private static ArrayNode approvalRun() {
        ArrayNode events = EventScript.events().runStarted(WORKFLOW, "{\"deal_value\": 50000}",
                        "validate_high_value_deal")
                .emitted(null, "validate_high_value_deal", "t1", null)
                .completed("validate_high_value_deal", "t1", "{\"deal_value\": 50000}")
                .emitted("validate_high_value_deal", "manager_approval", "t2", "t1").json();
        add(events, "approval.requested", "manager_approval", "t2", "{\"approval_id\": \"ap-1\", \"iteration\": 0, "
                + "\"approvers\": [\"alice\", \"role:approver\"], \"timeout_at\": 1763783600000, "
                + "\"escalation_policy\": \"escalate\", \"title\": \"Approve enterprise deal\", "
                + "\"input\": {\"deal_value\": 50000}}");
        return events;
    }

    private static void add(ArrayNode events, String type, String node, String data) {
        add(events, type, node, node == null ? null : "t-" + (events.size() + 1), data);
    }

    private static void add(ArrayNode events, String type, String node, String token, String data) {
        long seq = events.size() + 1L;
        ObjectNode event = events.addObject().put("seq", seq).put("type", type)
                .put("at", EventScript.millisOf(seq)).put("node", node).put("token", token);
        event.set("data", JSON.readTree(data));
    }

    private RunPicture draw(WorkflowIr ir, ArrayNode events) {
        return RunPictures.draw(RUN, "hitl", ir, live(events), Long.MAX_VALUE, 0);
    }

    private static RunLog live(ArrayNode events) {
        return RunLog.of(LiveEvent.all(events));
    }

    private static RunPicture.NodeView node(RunPicture picture, String id) {
        return picture.nodes().stream().filter(node -> node.id().equals(id)).findFirst().orElseThrow();
    }

    private static String render(RunPicture picture) {
        return fragments().state(picture);
    }

    private static RunFragments fragments() {
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver();
        resolver.setPrefix("templates/");
        resolver.setSuffix(".html");
        SpringTemplateEngine engine = new SpringTemplateEngine();
        engine.setTemplateResolver(resolver);
        engine.setLinkBuilder(new LiveLinkBuilder());
        return new RunFragments(new LiveTemplates(engine));
    }

    private static WorkflowIr compile(String fixture) {
        try (InputStream in = RunPicturesTests.class.getResourceAsStream("/workflows/" + fixture + ".json")) {
            JsonNode document = JSON.readTree(in);
            return new WorkflowCompiler(BuiltInNodeTypes.get(), ConditionEngine.withDefaults()).compile(document)
                    .irIfCompiled().orElseThrow();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
