package io.tokenflow.designer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.AbstractMockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The editor's page and the regions it asks the server for, rendered by the whole application. */
@IntegrationTest
@AutoConfigureMockMvc
class EditorControllerIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    @ParameterizedTest
    @ValueSource(strings = {"lead-scoring", "hitl-approval", "lead-qualification-agent", "payment-retry",
            "seed-001-types", "data-enrichment", "fan-out-fan-in"})
    void rendersAnInspectorForEveryNodeAndEdgeOfTheFixture(String fixture) throws Exception {
        String document = TestWorkflows.fixture("valid/" + fixture, TestWorkflows.unique(fixture));
        String id = created(document);
        JsonNode parsed = JSON.readTree(document);
        for (JsonNode node : parsed.path("nodes")) {
            String html = inspector(id, document, "node", node.path("id").asString());
            assertThat(html).contains("data-node=\"" + node.path("id").asString() + "\"", "Config", "Branch", "Loop");
        }
        for (int edge = 0; edge < parsed.path("edges").size(); edge++) {
            assertThat(inspector(id, document, "edge", String.valueOf(edge)))
                    .contains("data-base=\"/edges/" + edge + "\"", "data-path=\"/edges/" + edge + "/to\"");
        }
        assertThat(inspector(id, document, null, null)).contains("data-path=\"/inputs\"", "Workflow name");
    }

    @Test
    void inspectorShowsBranchRulesConditionsAndTheSettingsOfTheNodesKind() throws Exception {
        String scoring = TestWorkflows.fixture("valid/lead-scoring", TestWorkflows.unique("scoring"));
        String branch = inspector(created(scoring), scoring, "node", "score_customer");
        assertThat(branch).contains("Rule 3", "value=\"output.score &lt; 50\"",
                "data-path=\"/nodes/1/branch/rules/2/condition/expression\"", "data-action=\"condition-type\"",
                "data-path=\"/nodes/1/branch/default\"", "value=\"manual_review\"");

        String approval = TestWorkflows.fixture("valid/hitl-approval", TestWorkflows.unique("approval"));
        JsonNode human = nodeOfKind(approval, "human");
        assertThat(inspector(created(approval), approval, "node", human.path("id").asString()))
                .contains("Human approval", "Approvers", "Rejection path", "auto_approve");

        String agents = TestWorkflows.fixture("valid/lead-qualification-agent", TestWorkflows.unique("agents"));
        JsonNode agent = nodeOfKind(agents, "agent");
        assertThat(inspector(created(agents), agents, "node", agent.path("id").asString()))
                .contains("Model", "System prompt", "Tools", "The agent chooses");
    }

    @Test
    void inspectorOfATimerAndASignalShowsTheirSettingsAndNoRetry() throws Exception {
        String document = "{\"name\": \"" + TestWorkflows.unique("waits") + "\", \"nodes\": ["
                + "{\"id\": \"pause\", \"type\": \"wait\", \"wait\": {\"duration\": \"PT5M\"}},"
                + "{\"id\": \"paid\", \"type\": \"signal\", \"signal\": {\"name\": \"payment\", "
                + "\"key\": \"k\", \"timeout_path\": [\"pause\"]}}]}";
        String id = created(document);
        assertThat(inspector(id, document, "node", "pause")).contains("Timer", "data-path=\"/nodes/0/wait/duration\"",
                "value=\"PT5M\"", "data-path=\"/nodes/0/wait/until\"").doesNotContain("Retry and timeout");
        assertThat(inspector(id, document, "node", "paid")).contains("Signal", "data-path=\"/nodes/1/signal/name\"",
                "value=\"payment\"", "data-path=\"/nodes/1/signal/timeout_path\"", "Correlation key")
                .doesNotContain("On failure");
    }

    @Test
    void inspectorOfAWorkflowNodeShowsItsSubWorkflowSectionAndChecksTheCall() throws Exception {
        String billing = TestWorkflows.unique("billing");
        created(TestWorkflows.fixture("valid/sequential", billing));
        String order = TestWorkflows.unique("order");
        String document = "{\"name\": \"" + order + "\", \"nodes\": [{\"id\": \"start\", \"type\": \"function\", "
                + "\"config\": {\"function\": \"noop\"}}, {\"id\": \"bill\", \"type\": \"workflow\", "
                + "\"workflow\": {\"name\": \"" + billing + "\", \"version\": 1}}], "
                + "\"edges\": [{\"from\": \"start\", \"to\": \"bill\"}]}";
        String id = created(document);
        assertThat(inspector(id, document, "node", "bill")).contains("Sub-workflow",
                        "data-path=\"/nodes/1/workflow/name\"",
                        "<option value=\"" + billing + "\" selected=\"selected\"",
                        "data-path=\"/nodes/1/workflow/version\" data-type=\"integer\"", "value=\"1\"",
                        "data-path=\"/nodes/1/workflow/tag\"", "href=\"/workflows/" + billing + "\"",
                        "When the child run fails", "<option value=\"path\"")
                .doesNotContain("Retry and timeout", "<option value=\"dlq\"", "<option value=\"" + order + "\"",
                        "Map over a list");
        String callsItself = document.replace(billing, order);
        assertThat(body(mvc.perform(signedIn(post("/workflows/" + id + "/editor/check"))
                .param("document", callsItself)).andExpect(status().isOk())))
                .contains("data-errors=\"1\"", "data-pointer=\"/nodes/1/workflow\"", "calls back to " + order);
    }

    @Test
    void configFieldsFollowTheTypesSchema() throws Exception {
        String document = "{\"name\": \"" + TestWorkflows.unique("http") + "\", \"nodes\": [{\"id\": \"call\", "
                + "\"type\": \"http\", \"config\": {\"url\": \"https://example.org\", \"extra\": {\"a\": 1}}}]}";
        String html = inspector(created(document), document, "node", "call");
        assertThat(html).contains("data-path=\"/nodes/0/config/method\"", "<option value=\"PATCH\"",
                "data-path=\"/nodes/0/config/url\"", "value=\"https://example.org\"",
                "data-path=\"/nodes/0/config/timeout_ms\" data-type=\"integer\"",
                "data-path=\"/nodes/0/config/extra\" data-type=\"json\"", "Not declared by the type&#39;s schema.");
    }

    @Test
    void checkListsTheDraftsProblemsByNodeWithTheirPointers() throws Exception {
        String id = created(TestWorkflows.fixture("valid/fan-out-fan-in", TestWorkflows.unique("checked")));
        String broken = TestWorkflows.read("invalid/edge-to-unknown-node");
        String html = body(mvc.perform(signedIn(post("/workflows/" + id + "/editor/check"))
                        .param("document", broken).param("revision", "7"))
                .andExpect(status().isOk())
                .andExpect(view().name("designer/editor :: problems-panel")));
        assertThat(html).startsWith("<div id=\"problems-panel\"").contains("data-revision=\"7\"",
                "data-errors=\"1\"", "id=\"problems-node-B\"", "data-pointer=\"/edges/1/to\"",
                "data-severity=\"error\"", "no node &#39;nowhere&#39;");
        assertThat(body(mvc.perform(signedIn(post("/workflows/" + id + "/editor/ir")).param("document", broken))))
                .contains("does not compile");
    }

    @Test
    void editorPageHandsTheLatestDslToTheCanvasAndBuildsThePaletteFromTheNodeTypes() throws Exception {
        String document = "{\"name\": \"" + TestWorkflows.unique("page") + "\", \"description\": \"ends </script> here\","
                + " \"nodes\": [{\"id\": \"start\", \"type\": \"function\", \"config\": {\"function\": \"noop\"}}]}";
        String html = body(mvc.perform(signedIn(get("/workflows/" + created(document) + "/editor")))
                .andExpect(status().isOk()).andExpect(view().name("designer/editor")));
        String data = html.substring(html.indexOf("id=\"editor-data\">") + 17, html.indexOf("</script>",
                html.indexOf("id=\"editor-data\"")));
        assertThat(JSON.readTree(data).path("description").asString()).isEqualTo("ends </script> here");
        assertThat(html).contains("data-type=\"function\"", "data-kind=\"human\"", "data-type=\"http_agent\"",
                        "&quot;function&quot;:&quot;noop&quot;", "&quot;approvers&quot;:[&quot;dana&quot;]",
                        "data-type=\"wait\"", "&quot;wait&quot;:{&quot;duration&quot;:&quot;PT1M&quot;}",
                        "data-type=\"workflow\"", "&quot;workflow&quot;:{&quot;name&quot;:",
                        "/assets/vendor/cytoscape-edgehandles/")
                // content-hashed
                .containsPattern("/webjars/cytoscape/[0-9.]+/dist/cytoscape\\.min-[0-9a-f]{32}\\.js\"")
                .containsPattern("/assets/vendor/dagre/dagre\\.min-[0-9a-f]{32}\\.js\"")
                .containsPattern("/assets/js/designer/layout-[0-9a-f]{32}\\.js\"")
                .doesNotContain("data-type=\"parallel\"");
    }

    @Test
    void diffSummarisesWhatAVersionAddedRemovedAndChanged() throws Exception {
        String id = created(TestWorkflows.fixture("valid/fan-out-fan-in", TestWorkflows.unique("diffed")));
        String change = "[{\"op\": \"remove\", \"path\": \"/edges/3\"}, {\"op\": \"remove\", \"path\": \"/edges/1\"},"
                + " {\"op\": \"remove\", \"path\": \"/nodes/2\"}, {\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": "
                + "{\"id\": \"E\", \"type\": \"function\", \"config\": {\"function\": \"noop\"}}},"
                + " {\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"from\": \"D\", \"to\": \"E\"}},"
                + " {\"op\": \"replace\", \"path\": \"/nodes/0/config/function\", \"value\": \"noop\"}]";
        mvc.perform(signedIn(patch("/api/v1/workflows/" + id)).contentType("application/json-patch+json")
                .header("If-Match", "\"1\"").content(change)).andExpect(status().isOk());
        String html = body(mvc.perform(signedIn(get("/workflows/" + id + "/editor/diff")).param("from", "1")
                .param("to", "2")).andExpect(view().name("designer/editor :: diff-panel")));
        assertThat(html).contains("data-added-nodes=\"E\"", "data-removed-nodes=\"C\"", "data-changed-nodes=\"A\"",
                "data-added-edges=\"D → E\"", "data-removed-edges=\"A → C,C → D\"", "Patch (", "&quot;op&quot;");
    }

    @Test
    void historyPanelTagsAVersionOrSaysWhyNot() throws Exception {
        String id = created(TestWorkflows.fixture("valid/fan-out-fan-in", TestWorkflows.unique("tagged")));
        assertThat(body(mvc.perform(signedIn(post("/workflows/" + id + "/editor/tags")).param("tag", "no spaces"))
                .andExpect(status().isBadRequest()))).contains("Expected a tag of letters", "value=\"no spaces\"");
        assertThat(body(mvc.perform(signedIn(post("/workflows/" + id + "/editor/tags")).param("tag", "main")
                .param("version", "1")).andExpect(status().isOk())))
                .contains("id=\"tag-list\"", "main</span>", "version 1", "id=\"editor-version-1\"", "Created",
                        "<select id=\"diff-from\" name=\"from\">", "<select id=\"editor-tag-version\" name=\"version\">",
                        "<option value=\"1\" selected=\"selected\">v1</option>");
    }

    @Test
    void runFormHasOneTypedFieldPerDeclaredInput() throws Exception {
        String document = "{\"name\": \"" + TestWorkflows.unique("inputs") + "\", \"inputs\": {\"type\": \"object\", "
                + "\"properties\": {\"amount\": {\"type\": \"number\"}, \"currency\": {\"enum\": [\"EUR\", \"USD\"]}, "
                + "\"urgent\": {\"type\": \"boolean\", \"default\": true}, \"items\": {\"type\": \"array\"}}, "
                + "\"required\": [\"amount\"]}, \"nodes\": [{\"id\": \"start\", \"type\": \"function\", "
                + "\"config\": {\"function\": \"echo\"}}]}";
        String html = body(mvc.perform(signedIn(get("/workflows/" + created(document) + "/editor/run-form"))));
        assertThat(html).contains("Start a run of version 1", "data-path=\"/amount\" data-type=\"number\" "
                        + "aria-required=\"true\"", "<option value=\"USD\"", "data-path=\"/urgent\" data-type=\"boolean\"",
                "checked=\"checked\"", "data-path=\"/items\" data-type=\"json\"");
    }

    private String inspector(String workflowId, String document, String kind, String value) throws Exception {
        var request = signedIn(post("/workflows/" + workflowId + "/editor/inspector")).param("document", document);
        if (kind != null) {
            request.param(kind, value);
        }
        return body(mvc.perform(request).andExpect(status().isOk())
                .andExpect(view().name("designer/editor :: inspector")));
    }

    private static JsonNode nodeOfKind(String document, String type) {
        for (JsonNode node : JSON.readTree(document).path("nodes")) {
            if (type.equals(node.path("type").asString())) {
                return node;
            }
        }
        throw new IllegalArgumentException("Expected a node of type " + type);
    }

    private String created(String document) throws Exception {
        String location = mvc.perform(signedIn(post("/workflows/paste")).param("json", document))
                .andExpect(status().is3xxRedirection()).andReturn().getResponse().getRedirectedUrl();
        return location.substring(location.lastIndexOf('/') + 1);
    }

    private static String body(ResultActions result) throws Exception {
        return result.andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);
    }

    private static <B extends AbstractMockHttpServletRequestBuilder<B>> B signedIn(B request) {
        return request.with(user("dana").roles("DESIGNER")).with(csrf());
    }
}
