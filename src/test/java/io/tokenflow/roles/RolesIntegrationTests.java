package io.tokenflow.roles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;

/**
 * An instance with the supervisor and workers roles only: it writes the event log and runs tasks, but routes
 * nothing, fires no triggers, tails nothing for live pages, and serves the actuator and no UI or API.
 */
@IntegrationTest
@AutoConfigureMockMvc
@TestPropertySource(properties = "tokenflow.roles=supervisor,workers")
class RolesIntegrationTests {

    @Autowired ApplicationContext context;
    @Autowired MockMvc mvc;

    @Test
    void runsTheComponentsOfItsRolesOnly() {
        Map<String, SmartLifecycle> lifecycles = context.getBeansOfType(SmartLifecycle.class);
        assertThat(running(lifecycles, "eventLogDrain")).isTrue();
        assertThat(running(lifecycles, "workerRuntime")).isTrue();
        assertThat(running(lifecycles, "coordinatorRuntime")).isFalse();
        assertThat(running(lifecycles, "heldTasks")).isFalse();
        assertThat(running(lifecycles, "cronScheduler")).isFalse();
        assertThat(running(lifecycles, "eventsTailer")).isFalse();
    }

    @Test
    void answersTheActuatorAndRefusesTheUiAndTheApiWithAProblem() throws Exception {
        mvc.perform(get("/actuator/health")).andExpect(status().isOk());
        mvc.perform(get("/api/v1/runs").with(user("olga").roles("OPERATOR"))).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("without the web role")));
        mvc.perform(get("/workflows")).andExpect(status().isNotFound());
    }

    private static boolean running(Map<String, SmartLifecycle> lifecycles, String name) {
        assertThat(lifecycles).containsKey(name);
        return lifecycles.get(name).isRunning();
    }
}
