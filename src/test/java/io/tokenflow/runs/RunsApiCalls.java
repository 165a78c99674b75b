package io.tokenflow.runs;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.TestWorkflows;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The REST calls the runs tests make, as an operator who also designs ("olga"). */
final class RunsApiCalls {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final MockMvc mvc;

    RunsApiCalls(MockMvc mvc) {
        this.mvc = mvc;
    }

    /** Starts a run and expects 201. */
    UUID start(String body) throws Exception {
        String response = call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString();
        return UUID.fromString(JSON.readTree(response).get("id").asString());
    }

    /** Creates a workflow from a fixture under a unique name, and returns the name. */
    String created(String fixture) throws Exception {
        String name = TestWorkflows.unique(fixture.substring(fixture.indexOf('/') + 1));
        call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                .content(TestWorkflows.fixture(fixture, name))).andExpect(status().isCreated());
        return name;
    }

    JsonNode read(MockHttpServletRequestBuilder request) throws Exception {
        return JSON.readTree(call(request).andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }

    ResultActions call(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("olga").roles("OPERATOR", "DESIGNER")).with(csrf()));
    }
}
