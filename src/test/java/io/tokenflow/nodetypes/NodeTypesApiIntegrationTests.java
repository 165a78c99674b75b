package io.tokenflow.nodetypes;

import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
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

/** The node-type registry lists every type with its config schema and stream; admins register custom ones. */
@IntegrationTest
@AutoConfigureMockMvc
class NodeTypesApiIntegrationTests {

    @Autowired
    MockMvc mvc;

    @Test
    void listsBuiltInTypesWithConfigSchemaAndStream() throws Exception {
        call(get("/api/v1/node-types"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[*].name", hasItems("function", "http", "transform", "filter", "aggregate",
                        "conditional", "loop", "parallel", "task", "agent", "human")))
                .andExpect(jsonPath("$[?(@.name == 'function')].stream").value(hasItem("wf.tasks.function:{0}")))
                .andExpect(jsonPath("$[?(@.name == 'function')].consumerGroup").value(hasItem("wf.workers.function")))
                .andExpect(jsonPath("$[?(@.name == 'http')].configSchema.required[0]").value(hasItem("url")))
                .andExpect(jsonPath("$[?(@.name == 'human')].kind").value(hasItem("human")))
                .andExpect(jsonPath("$[?(@.name == 'conditional')].worker").value(hasItem("function")));
    }

    @Test
    void registeredTypeCanBeUsedInAWorkflowAndItsConfigIsChecked() throws Exception {
        String type = "geo_" + UUID.randomUUID().toString().substring(0, 6).replace('-', '_');
        call(put("/api/v1/node-types/" + type).contentType(MediaType.APPLICATION_JSON).content("""
                {"displayName": "Geocode", "description": "Looks up coordinates",
                 "configSchema": {"type": "object", "required": ["provider"],
                                  "properties": {"provider": {"enum": ["osm", "google"]}}}}"""))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.builtIn").value(false))
                .andExpect(jsonPath("$.stream").value("wf.tasks." + type + ":{0}"));
        String workflow = """
                {"name": "uses-%s", "nodes": [{"id": "where", "type": "%s", "config": {"provider": "%s"}}]}""";
        call(post("/api/v1/workflows/compile").contentType(MediaType.APPLICATION_JSON)
                .content(workflow.formatted(type, type, "osm"))).andExpect(jsonPath("$.valid").value(true))
                .andExpect(jsonPath("$.ir.nodes.where.worker").value(type));
        call(post("/api/v1/workflows/compile").contentType(MediaType.APPLICATION_JSON)
                .content(workflow.formatted(type, type, "bing"))).andExpect(jsonPath("$.valid").value(false))
                .andExpect(jsonPath("$.diagnostics[0].pointer").value("/nodes/0/config/provider"));
        call(delete("/api/v1/node-types/" + type)).andExpect(status().isNoContent());
        call(get("/api/v1/node-types/" + type)).andExpect(status().isNotFound());
    }

    @Test
    void refusesToReplaceBuiltInTypesOrAcceptInvalidSchemas() throws Exception {
        call(put("/api/v1/node-types/http").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isConflict());
        call(put("/api/v1/node-types/Bad-Name").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isBadRequest());
        call(put("/api/v1/node-types/odd_schema").contentType(MediaType.APPLICATION_JSON)
                .content("{\"configSchema\": {\"type\": 12}}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/configSchema"));
        call(put("/api/v1/node-types/remote_ref").contentType(MediaType.APPLICATION_JSON)
                .content("{\"configSchema\": {\"properties\": {\"a\": {\"$ref\": \"http://169.254.169.254/x\"}}}}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.pointer").value("/configSchema/properties/a/$ref"));
    }

    private ResultActions call(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("root").roles("ADMIN", "DESIGNER")).with(csrf()));
    }
}
