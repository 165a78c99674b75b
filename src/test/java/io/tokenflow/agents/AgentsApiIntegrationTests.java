package io.tokenflow.agents;

import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/** The agent registry API: admins register agents, anyone who reads workflows lists them; secrets never come back. */
@AgentIntegrationTest
class AgentsApiIntegrationTests {

    @Autowired
    MockMvc mvc;

    @Test
    void registersListsReplacesAndRemovesAnAgentWithoutShowingItsSecret() throws Exception {
        String name = unique();
        admin(put("/api/v1/agents/" + name).contentType(MediaType.APPLICATION_JSON).content("""
                {"url": "https://agents.example/research", "timeoutMs": 5000,
                 "auth": {"type": "header", "name": "X-Api-Key", "value": "top-secret"},
                 "retryPolicy": {"maxRetries": 5, "initialDelayMs": 100}}"""))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.name").value(name))
                .andExpect(jsonPath("$.auth.type").value("header"))
                .andExpect(jsonPath("$.auth.name").value("X-Api-Key"))
                .andExpect(jsonPath("$.auth.secretSet").value(true))
                .andExpect(jsonPath("$.retryPolicy.maxRetries").value(5))
                .andExpect(jsonPath("$.retryPolicy.maxDelayMs").value(10000))
                .andExpect(jsonPath("$.retryPolicy.backoffMultiplier").value(2.0))
                .andExpect(content().string(not(Matchers.containsString("top-secret"))));
        reader(get("/api/v1/agents")).andExpect(status().isOk())
                .andExpect(jsonPath("$[*].name", hasItem(name)))
                .andExpect(content().string(not(Matchers.containsString("top-secret"))));
        admin(put("/api/v1/agents/" + name).contentType(MediaType.APPLICATION_JSON)
                .content("{\"url\": \"http://localhost:9000/v2\"}")).andExpect(status().isOk());
        reader(get("/api/v1/agents/" + name)).andExpect(jsonPath("$.url").value("http://localhost:9000/v2"))
                .andExpect(jsonPath("$.auth.type").value("none"))
                .andExpect(jsonPath("$.timeoutMs").value(30000));
        admin(delete("/api/v1/agents/" + name)).andExpect(status().isNoContent());
        reader(get("/api/v1/agents/" + name)).andExpect(status().isNotFound())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void refusesInvalidRegistrationsNamingTheFieldAtFault() throws Exception {
        expectBadRequest(unique(), "{\"url\": \"ftp://files.example\"}", "/url");
        expectBadRequest(unique(), "{\"timeoutMs\": 5}", "/url");
        expectBadRequest(unique(), "{\"url\": \"https://a.example\", \"timeoutMs\": 0}", "/timeoutMs");
        expectBadRequest(unique(), "{\"url\": \"https://a.example\", \"auth\": {\"type\": \"bearer\"}}",
                "/auth/token");
        expectBadRequest(unique(), "{\"url\": \"https://a.example\", \"auth\": {\"type\": \"magic\"}}", "/auth/type");
        expectBadRequest(unique(), "{\"url\": \"https://a.example\", \"retryPolicy\": {\"maxRetries\": 99}}",
                "/retryPolicy/maxRetries");
        expectBadRequest(unique(), "{\"url\": \"https://a.example\", \"retryPolicy\": {\"initialDelayMs\": 5000, "
                + "\"maxDelayMs\": 10}}", "/retryPolicy/maxDelayMs");
        expectBadRequest("1-starts-with-a-digit", "{\"url\": \"https://a.example\"}", "path:name");
    }

    @Test
    void onlyAdminsMayRegisterOrRemoveAgents() throws Exception {
        String name = unique();
        mvc.perform(put("/api/v1/agents/" + name).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"url\": \"https://a.example\"}").with(user("dee").roles("DESIGNER")).with(csrf()))
                .andExpect(status().isForbidden());
        mvc.perform(delete("/api/v1/agents/" + name).with(user("dee").roles("DESIGNER")).with(csrf()))
                .andExpect(status().isForbidden());
        reader(get("/api/v1/agents/" + name)).andExpect(status().isNotFound());
    }

    private void expectBadRequest(String name, String body, String pointer) throws Exception {
        admin(put("/api/v1/agents/" + name).contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.pointer").value(pointer));
    }

    private ResultActions admin(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("root").roles("ADMIN")).with(csrf()));
    }

    private ResultActions reader(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("dee").roles("DESIGNER")));
    }

    private static String unique() {
        return "agent-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
