package io.tokenflow.designer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import io.tokenflow.engine.ir.IrCall;

/**
 * Workflow nodes against the other workflows, through the REST API: a call of what does not exist and a cycle between
 * workflows are refused when a version is stored, and a stored version keeps compiling when what it calls changes.
 */
@IntegrationTest
@AutoConfigureMockMvc
class WorkflowCallsIntegrationTests {

    private static final String JSON_PATCH = "application/json-patch+json";

    @Autowired
    MockMvc mvc;

    @Autowired
    PinnedWorkflows pinned;

    @Test
    void refusesACallOfAnUnknownWorkflowVersionOrTagAtItsPointer() throws Exception {
        String billing = created("valid/sequential");
        String nobody = TestWorkflows.unique("nobody");
        refused(caller(TestWorkflows.unique("order"), "{\"name\": \"" + nobody + "\", \"version\": 1}"),
                "unknown-workflow", "/nodes/1/workflow/name")
                .andExpect(jsonPath("$.diagnostics[0].node").value("call"))
                .andExpect(jsonPath("$.diagnostics[0].message").value("Expected a workflow named '" + nobody
                        + "' to call, but there is none"));
        refused(caller(TestWorkflows.unique("order"), "{\"name\": \"" + billing + "\", \"version\": 4}"),
                "unknown-workflow", "/nodes/1/workflow/version")
                .andExpect(jsonPath("$.diagnostics[0].message").value(containsString("its versions are 1 to 1")));
        refused(caller(TestWorkflows.unique("order"), "{\"name\": \"" + billing + "\", \"tag\": \"prod\"}"),
                "unknown-workflow", "/nodes/1/workflow/tag")
                .andExpect(jsonPath("$.diagnostics[0].message").value("Expected tag 'prod' on workflow '" + billing
                        + "', but it has no tags; its latest version is 1"));
    }

    @Test
    void refusesACallOfItselfAndAPatchThatClosesACycle() throws Exception {
        String order = TestWorkflows.unique("order");
        refused(caller(order, "{\"name\": \"" + order + "\", \"version\": 1}"), "workflow-cycle", "/nodes/1/workflow")
                .andExpect(jsonPath("$.diagnostics[0].message").value("Expected no cycle between workflows, but "
                        + order + " → " + order + " v1 calls back to " + order));
        String billing = created("valid/sequential");
        send(post("/api/v1/workflows"), caller(order, "{\"name\": \"" + billing + "\", \"version\": 1}"))
                .andExpect(status().isCreated());
        addCall(billing, "{\"name\": \"" + order + "\", \"version\": 1}")
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.diagnostics[0].code").value("workflow-cycle"))
                .andExpect(jsonPath("$.diagnostics[0].pointer").value("/nodes/3/workflow"))
                .andExpect(jsonPath("$.diagnostics[0].message").value("Expected no cycle between workflows, but "
                        + billing + " → " + order + " v1 → " + billing + " v1 calls back to " + billing));
        call(get("/api/v1/workflows/" + billing)).andExpect(jsonPath("$.latestVersion").value(1));
    }

    @Test
    void refusesCallsNestedDeeperThanTen() throws Exception {
        String called = created("valid/sequential");
        for (int depth = 1; depth <= 10; depth++) {
            String name = TestWorkflows.unique("nest" + depth);
            send(post("/api/v1/workflows"), caller(name, "{\"name\": \"" + called + "\", \"version\": 1}"))
                    .andExpect(status().isCreated());
            called = name;
        }
        refused(caller(TestWorkflows.unique("nest11"), "{\"name\": \"" + called + "\", \"version\": 1}"),
                "workflow-depth", "/nodes/1/workflow")
                .andExpect(jsonPath("$.diagnostics[0].message").value(containsString("nests 11")));
    }

    @Test
    void checksADraftThroughTheCompileApi() throws Exception {
        String order = TestWorkflows.unique("order");
        send(post("/api/v1/workflows/compile"), caller(order, "{\"name\": \"" + order + "\", \"tag\": \"main\"}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.valid").value(false))
                .andExpect(jsonPath("$.diagnostics[0].code").value("workflow-cycle"));
    }

    @Test
    void storesAValidCallAndKeepsCompilingItWhenTheCalledTagMovesOrGoes() throws Exception {
        String billing = created("valid/sequential");
        call(put("/api/v1/workflows/" + billing + "/tags/prod")).andExpect(status().isOk());
        String order = TestWorkflows.unique("order");
        send(post("/api/v1/workflows"), caller(order, "{\"name\": \"" + billing + "\", \"tag\": \"prod\"}"))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.ir.nodes.call.call.workflow").value(billing))
                .andExpect(jsonPath("$.ir.nodes.call.call.tag").value("prod"));
        call(patch("/api/v1/workflows/" + billing).contentType(JSON_PATCH).header("If-Match", "\"1\"")
                .content("[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"v2\"}]"))
                .andExpect(status().isOk());
        send(put("/api/v1/workflows/" + billing + "/tags/prod"), "{\"version\": 2}").andExpect(status().isOk());
        assertThat(pinned.resolve(order, null, 1).ir().node("call").call())
                .isEqualTo(new IrCall(billing, null, "prod"));
        call(delete("/api/v1/workflows/" + billing + "/tags/prod")).andExpect(status().isNoContent());

        assertThat(pinned.resolve(order, null, null).ir().node("call").call().pin()).isEqualTo(billing + "@prod");
        call(get("/api/v1/workflows/" + order)).andExpect(status().isOk());
        call(patch("/api/v1/workflows/" + order).contentType(JSON_PATCH).header("If-Match", "\"1\"")
                .content("[{\"op\": \"add\", \"path\": \"/description\", \"value\": \"v2\"}]"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].pointer").value("/nodes/1/workflow/tag"));
        call(post("/api/v1/workflows/" + order + "/versions/1/restore").header("If-Match", "\"1\""))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.diagnostics[0].code").value("unknown-workflow"));
    }

    @Test
    void refusesToMoveATagWhereItWouldCloseACycle() throws Exception {
        String billing = created("valid/sequential");
        call(put("/api/v1/workflows/" + billing + "/tags/prod")).andExpect(status().isOk());
        String order = created("valid/sequential");
        call(put("/api/v1/workflows/" + order + "/tags/main")).andExpect(status().isOk());
        addCall(order, "{\"name\": \"" + billing + "\", \"tag\": \"prod\"}").andExpect(status().isOk());
        addCall(billing, "{\"name\": \"" + order + "\", \"tag\": \"main\"}").andExpect(status().isOk());
        send(put("/api/v1/workflows/" + order + "/tags/main"), "{\"version\": 2}").andExpect(status().isOk());

        send(put("/api/v1/workflows/" + billing + "/tags/prod"), "{\"version\": 2}")
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.detail").value("Expected no cycle between workflows, but " + billing + " → "
                        + order + " v2 → " + billing + "@prod calls back to " + billing));
        call(get("/api/v1/workflows/" + billing + "/tags")).andExpect(jsonPath("$.prod").value(1));
    }

    /** Patches version 1 of the workflow (made from valid/sequential) to call with the settings after its node C. */
    private ResultActions addCall(String workflow, String call) throws Exception {
        String patch = """
                [{"op": "add", "path": "/nodes/-", "value": {"id": "call", "type": "workflow", "workflow": %s}},
                 {"op": "add", "path": "/edges/-", "value": {"from": "C", "to": "call"}}]""".formatted(call);
        return call(patch("/api/v1/workflows/" + workflow).contentType(JSON_PATCH).header("If-Match", "\"1\"")
                .content(patch));
    }

    /** A workflow whose node {@code call} (at /nodes/1) calls with the given workflow settings. */
    private static String caller(String name, String call) {
        return """
                {"name": "%s", "nodes": [{"id": "start", "type": "function", "config": {"function": "noop"}},
                  {"id": "call", "type": "workflow", "workflow": %s}],
                 "edges": [{"from": "start", "to": "call"}]}""".formatted(name, call);
    }

    private ResultActions refused(String document, String code, String pointer) throws Exception {
        return send(post("/api/v1/workflows"), document)
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.diagnostics[0].code").value(code))
                .andExpect(jsonPath("$.diagnostics[0].pointer").value(pointer));
    }

    private String created(String fixture) throws Exception {
        String name = TestWorkflows.unique("called");
        send(post("/api/v1/workflows"), TestWorkflows.fixture(fixture, name)).andExpect(status().isCreated());
        return name;
    }

    private ResultActions send(MockHttpServletRequestBuilder request, String body) throws Exception {
        return call(request.contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private ResultActions call(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("alice").roles("DESIGNER", "ADMIN")).with(csrf()));
    }
}
