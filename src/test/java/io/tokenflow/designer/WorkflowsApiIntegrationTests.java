package io.tokenflow.designer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The definitions API against a real PostgreSQL: every change is a checked patch; bad input never stores anything. */
@IntegrationTest
@AutoConfigureMockMvc
class WorkflowsApiIntegrationTests {

    private static final String JSON_PATCH = "application/json-patch+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    @Test
    void createsWorkflowAsVersionOneWithItsIr() throws Exception {
        String name = unique("fan");
        send(post("/api/v1/workflows"), fixture("valid/fan-out-fan-in", name))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", startsWith("/api/v1/workflows/")))
                .andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.name").value(name))
                .andExpect(jsonPath("$.version").value(1))
                .andExpect(jsonPath("$.ir.nodes.D.join.expected", hasSize(2)))
                .andExpect(jsonPath("$.ir.nodes.D.is_terminal").value(true))
                .andExpect(jsonPath("$.ir.entry_nodes[0]").value("A"));
        call(get("/api/v1/workflows/" + name)).andExpect(status().isOk()).andExpect(jsonPath("$.latestVersion").value(1));
    }

    @Test
    void importsSeed004PlanAsGraph() throws Exception {
        String name = unique("plan");
        ObjectNode plan = (ObjectNode) JSON.readTree(read("valid/research-and-write.plan"));
        plan.put("name", name);
        send(post("/api/v1/workflows"), plan.toString())
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.dsl.nodes[0].type").value("http_agent"))
                .andExpect(jsonPath("$.dsl.edges[0].to").value("step-2"));
    }

    @Test
    void refusesWorkflowThatDoesNotCompileAndStoresNothing() throws Exception {
        String name = unique("broken");
        send(post("/api/v1/workflows"), fixture("invalid/many-problems", name))
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(422))
                .andExpect(jsonPath("$.diagnostics", hasSize(4)))
                .andExpect(jsonPath("$.diagnostics[*].pointer", hasItem("/nodes/1/config/url")))
                .andExpect(jsonPath("$.diagnostics[*].node", hasItem("C")))
                .andExpect(jsonPath("$.diagnostics[0].severity").value("error"));
        call(get("/api/v1/workflows/" + name)).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://tokenflow.io/problems/not-found"));
    }

    @Test
    void patchMakesTheNextVersionAndKeepsThePatchInHistory() throws Exception {
        String name = created("valid/sequential");
        String addNode = """
                [{"op": "add", "path": "/nodes/-", "value": {"id": "D", "type": "function", "config": {"function": "echo"}}},
                 {"op": "add", "path": "/edges/-", "value": {"from": "C", "to": "D"}}]""";
        patchWith(name, "1", addNode)
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"2\""))
                .andExpect(jsonPath("$.version").value(2))
                .andExpect(jsonPath("$.changed").value(true))
                .andExpect(jsonPath("$.ir.terminal_nodes[0]").value("D"));
        call(get("/api/v1/workflows/" + name + "/versions"))
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[0].version").value(2))
                .andExpect(jsonPath("$[0].parentVersion").value(1))
                .andExpect(jsonPath("$[0].author").value("alice"))
                .andExpect(jsonPath("$[0].patch[0].path").value("/nodes/-"))
                .andExpect(jsonPath("$[1].patch").doesNotExist());
        call(get("/api/v1/workflows/" + name + "/versions/1")).andExpect(jsonPath("$.dsl.nodes", hasSize(3)));
        call(get("/api/v1/workflows/" + name + "/diff?from=1&to=2"))
                .andExpect(status().isOk()).andExpect(jsonPath("$[0].op").value("add"));
    }

    @Test
    void refusesStaleVersionWithConflict() throws Exception {
        String name = created("valid/sequential");
        String rename = "[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"first\"}]";
        patchWith(name, "1", rename).andExpect(status().isOk());
        patchWith(name, "1", "[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"second\"}]")
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.latestVersion").value(2))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("latest version is 2")));
        assertVersions(name, 2);
    }

    @Test
    void refusesFailedTestOperationWithConflictAndStoresNothing() throws Exception {
        String name = created("valid/sequential");
        patchWith(name, "1", "[{\"op\": \"test\", \"path\": \"/nodes/0/id\", \"value\": \"Z\"},"
                + "{\"op\": \"remove\", \"path\": \"/nodes/2\"}]")
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("https://tokenflow.io/problems/patch-test-failed"))
                .andExpect(jsonPath("$.operation").value(0));
        assertVersions(name, 1);
    }

    @Test
    void refusesPatchWhoseResultDoesNotCompile() throws Exception {
        String name = created("valid/sequential");
        patchWith(name, "1", "[{\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"from\": \"C\", \"to\": \"ghost\"}}]")
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].pointer").value("/edges/2/to"))
                .andExpect(jsonPath("$.diagnostics[0].node").value("C"));
        assertVersions(name, 1);
    }

    @Test
    void refusesMalformedPatchesNamingTheOperation() throws Exception {
        String name = created("valid/sequential");
        patchWith(name, "1", "{\"op\": \"add\"}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("https://tokenflow.io/problems/invalid-patch"));
        patchWith(name, "1", "[{\"op\": \"jump\", \"path\": \"/nodes\"}]").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.pointer").value("/0/op"));
        patchWith(name, "1", "[{\"op\": \"remove\", \"path\": \"/nodes/9\"}]").andExpect(status().isConflict())
                .andExpect(jsonPath("$.operation").value(0));
        patchWith(name, "1", "[{\"op\": \"add\", \"op\": \"remove\", \"path\": \"/nodes/0\"}]")
                .andExpect(status().isBadRequest());
        patchWith(name, "1", "not json").andExpect(status().isBadRequest());
        assertVersions(name, 1);
    }

    @Test
    void requiresIfMatchAndTheJsonPatchMediaType() throws Exception {
        String name = created("valid/sequential");
        String body = "[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"x\"}]";
        call(patch("/api/v1/workflows/" + name).contentType(JSON_PATCH).content(body))
                .andExpect(status().isPreconditionRequired())
                .andExpect(jsonPath("$.pointer").value("header:If-Match"));
        call(patch("/api/v1/workflows/" + name).contentType(MediaType.APPLICATION_JSON).header("If-Match", "\"1\"")
                .content(body)).andExpect(status().isUnsupportedMediaType())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        patchWith(name, "banana", body).andExpect(status().isBadRequest());
        assertVersions(name, 1);
    }

    @Test
    void refusesBadDocumentsWithProblemDetails() throws Exception {
        send(post("/api/v1/workflows"), "{\"name\": \"x\", ").andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        send(post("/api/v1/workflows"), "{\"name\": 7, \"nodes\": \"none\"}").andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[*].pointer", hasItem("/nodes")));
        send(post("/api/v1/workflows"), "{\"name\": \"a\", \"name\": \"b\", \"nodes\": []}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("Duplicate")));
        String huge = "{\"name\": \"huge\", \"description\": \"" + "x".repeat(1_100_000) + "\", \"nodes\": []}";
        send(post("/api/v1/workflows"), huge).andExpect(status().isPayloadTooLarge())
                .andExpect(jsonPath("$.status").value(413));
        send(post("/api/v1/workflows"), "[]").andExpect(status().isUnprocessableContent());
        send(post("/api/v1/workflows"), "").andExpect(status().isBadRequest());
    }

    /**
     * A document nested as deep as the JSON parser allows used to be stored, and then every read of it answered 500
     * (a response wraps it deeper still); one nested deeper than the parser allows is refused without Java's words.
     */
    @Test
    void refusesDocumentsNestedTooDeepNamingTheValue() throws Exception {
        String name = unique("deep");
        String deep = "{\"a\": ".repeat(70) + "1" + "}".repeat(70);
        send(post("/api/v1/workflows"), "{\"name\": \"" + name + "\", \"nodes\": [{\"id\": \"n\", \"type\": "
                + "\"function\", \"config\": {\"function\": \"echo\", \"args\": " + deep + "}}]}")
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].code").value("too-deep"))
                .andExpect(jsonPath("$.diagnostics[0].pointer").value("/nodes/0/config/args" + "/a".repeat(60)));
        String parserLimit = "[".repeat(499) + "]".repeat(499);
        send(post("/api/v1/workflows"), "{\"name\": \"" + name + "\", \"nodes\": [], \"x\": " + parserLimit + "}")
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].code").value("too-deep"));
        send(post("/api/v1/workflows"), "{\"name\": \"" + name + "\", \"x\": " + "[".repeat(3000) + "]".repeat(3000)
                + "}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString(
                        "Constraints"))));
        call(get("/api/v1/workflows/" + name)).andExpect(status().isNotFound());
    }

    /** A reference of thousands of segments overflowed the stack of the pattern checking it (answered 500). */
    @Test
    void refusesAReferenceOfThousandsOfSegmentsAtItsPointer() throws Exception {
        String reference = "${workflow.input" + ".a".repeat(3000) + "}";
        send(post("/api/v1/workflows"), "{\"name\": \"" + unique("long-reference") + "\", \"nodes\": [{\"id\": \"n\", "
                + "\"type\": \"function\", \"config\": {\"function\": \"echo\"}, \"input\": {\"v\": \"" + reference
                + "\"}}]}").andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].code").value("invalid-reference"))
                .andExpect(jsonPath("$.diagnostics[0].pointer").value("/nodes/0/input/v"))
                .andExpect(jsonPath("$.diagnostics[0].message", org.hamcrest.Matchers.containsString(
                        "at most 100 segments")));
    }

    /**
     * The declared inputs are a schema every start is checked against on a request thread: one the validators cannot
     * take is refused at its pointer, and patterns run on RE2, so a pattern that backtracks exponentially on Java's
     * regular expressions answers at once (40 a's and a '!' against (a+)+$ took Java's engine 2^40 steps).
     */
    @Test
    void checksTheDeclaredInputsAsASchemaAndRunsTheirPatternsInLinearTime() throws Exception {
        send(post("/api/v1/workflows"), inputsWorkflow(unique("inputs-count"), "{\"maxLength\": 1e308}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].code").value("invalid-inputs"))
                .andExpect(jsonPath("$.diagnostics[0].pointer").value("/inputs/properties/s/maxLength"));
        send(post("/api/v1/workflows"), inputsWorkflow(unique("inputs-lookahead"), "{\"pattern\": \"(?=a)b\"}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].code").value("invalid-inputs"));
        String name = unique("inputs-pattern");
        send(post("/api/v1/workflows"), inputsWorkflow(name, "{\"type\": \"string\", \"pattern\": \"^(a+)+$\"}"))
                .andExpect(status().isCreated());

        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () ->
                send(post("/api/v1/runs"), "{\"workflow\": \"" + name + "\", \"inputs\": {\"s\": \""
                        + "a".repeat(40) + "!\"}}").andExpect(status().isUnprocessableContent())
                        .andExpect(jsonPath("$.pointer").value("/inputs/s")));
    }

    private static String inputsWorkflow(String name, String property) {
        return "{\"name\": \"" + name + "\", \"inputs\": {\"type\": \"object\", \"properties\": {\"s\": "
                + property + "}}, \"nodes\": [{\"id\": \"n\", \"type\": \"function\", \"config\": "
                + "{\"function\": \"echo\"}}]}";
    }

    @Test
    void exportsTheDocumentInTheAuthorsMemberOrder() throws Exception {
        String name = created("valid/sequential");
        String exported = call(get("/api/v1/workflows/" + name + "/versions/1/dsl"))
                .andExpect(status().isOk())
                .andExpect(header().string("Content-Disposition", startsWith("attachment")))
                .andReturn().getResponse().getContentAsString();
        assertThat(exported.indexOf("\"nodes\"")).isLessThan(exported.indexOf("\"edges\""));
        assertThat(exported.indexOf("\"from\"")).isLessThan(exported.indexOf("\"to\""));
        assertThat(exported.indexOf("\"id\"")).isLessThan(exported.indexOf("\"type\""));
    }

    @Test
    void refusesDuplicateNameWithConflict() throws Exception {
        String name = created("valid/sequential");
        send(post("/api/v1/workflows"), fixture("valid/sequential", name)).andExpect(status().isConflict())
                .andExpect(jsonPath("$.pointer").value("/name"));
    }

    @Test
    void tagsPointAtVersions() throws Exception {
        String name = created("valid/sequential");
        patchWith(name, "1", "[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"v2\"}]").andExpect(status().isOk());
        call(put("/api/v1/workflows/" + name + "/tags/main").contentType(MediaType.APPLICATION_JSON).content("{\"version\": 1}"))
                .andExpect(status().isOk()).andExpect(jsonPath("$.version").value(1));
        call(put("/api/v1/workflows/" + name + "/tags/latest-ok").contentType(MediaType.APPLICATION_JSON).content(""))
                .andExpect(jsonPath("$.version").value(2));
        call(get("/api/v1/workflows/" + name)).andExpect(jsonPath("$.tags.main").value(1));
        call(put("/api/v1/workflows/" + name + "/tags/main").contentType(MediaType.APPLICATION_JSON).content("{\"version\": 9}"))
                .andExpect(status().isNotFound());
        call(put("/api/v1/workflows/" + name + "/tags/bad tag!").contentType(MediaType.APPLICATION_JSON).content(""))
                .andExpect(status().isBadRequest());
    }

    @Test
    void restoresAnOldVersionAsANewOne() throws Exception {
        String name = created("valid/sequential");
        patchWith(name, "1", "[{\"op\": \"remove\", \"path\": \"/edges/1\"}, {\"op\": \"remove\", \"path\": \"/nodes/2\"}]")
                .andExpect(status().isOk());
        call(post("/api/v1/workflows/" + name + "/versions/1/restore").header("If-Match", "\"2\""))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.version").value(3))
                .andExpect(jsonPath("$.dsl.nodes", hasSize(3)));
    }

    @Test
    void compilesWithoutStoring() throws Exception {
        send(post("/api/v1/workflows/compile"), read("valid/payment-retry"))
                .andExpect(status().isOk()).andExpect(jsonPath("$.valid").value(true))
                .andExpect(jsonPath("$.ir.nodes.call_payment_api.loop.max_iterations").value(5));
        send(post("/api/v1/workflows/compile"), read("invalid/cycle-without-loop"))
                .andExpect(status().isOk()).andExpect(jsonPath("$.valid").value(false))
                .andExpect(jsonPath("$.ir").doesNotExist())
                .andExpect(jsonPath("$.diagnostics[0].code").value("cycle"));
        call(get("/api/v1/workflows/cycle-without-loop")).andExpect(status().isNotFound());
    }

    @Test
    void servesTheDslSchema() throws Exception {
        call(get("/api/v1/schema/workflow"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.$schema").value("https://json-schema.org/draft/2020-12/schema"))
                .andExpect(jsonPath("$.properties.nodes.type").value("array"));
    }

    private String created(String fixture) throws Exception {
        String name = unique(fixture.substring(fixture.indexOf('/') + 1));
        send(post("/api/v1/workflows"), fixture(fixture, name)).andExpect(status().isCreated());
        return name;
    }

    private void assertVersions(String name, int count) throws Exception {
        call(get("/api/v1/workflows/" + name + "/versions")).andExpect(jsonPath("$", hasSize(count)));
        call(get("/api/v1/workflows/" + name)).andExpect(jsonPath("$.latestVersion").value(count));
    }

    private ResultActions patchWith(String name, String ifMatch, String body) throws Exception {
        return call(patch("/api/v1/workflows/" + name).contentType(JSON_PATCH).header("If-Match", "\"" + ifMatch + "\"")
                .content(body));
    }

    private ResultActions send(MockHttpServletRequestBuilder request, String body) throws Exception {
        return call(request.contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private ResultActions call(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("alice").roles("DESIGNER", "ADMIN")).with(csrf()));
    }

    static String unique(String prefix) {
        return TestWorkflows.unique(prefix);
    }

    static String fixture(String name, String workflowName) {
        return TestWorkflows.fixture(name, workflowName);
    }

    static String read(String name) {
        return TestWorkflows.read(name);
    }
}
