package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/**
 * The refused completion signals as an operator reads them on the REST API, after an outsider wrote bad ones to the
 * completions stream: all of them (the list without a filter used to answer 500: PostgreSQL could not type the
 * filter's parameter), one run's, and a limit out of range refused naming the parameter.
 */
class RejectedSignalsApiIntegrationTests extends OperatorTests {

    @Test
    void listsTheRefusedSignalsAllOrOneRunsAndRefusesALimitOutOfRange() throws Exception {
        String run = "not-a-run-" + UUID.randomUUID().toString().substring(0, 8);
        String other = "not-a-run-" + UUID.randomUUID().toString().substring(0, 8);
        for (String id : new String[] {run, other}) {
            api.redis().xadd("wf.completions:{0}", api.key().signed(Map.of("token", "t-" + id, "run", id,
                    "node", "A", "status", "completed", "output", "{}")));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> api.read(get("/api/v1/signals/rejected?run=" + other))
                .size() == 1);

        JsonNode all = api.read(get("/api/v1/signals/rejected?limit=1000"));
        assertThat(all.valueStream().map(signal -> signal.get("runId").asString())).contains(run, other);
        JsonNode one = api.read(get("/api/v1/signals/rejected?run=" + run));
        assertThat(one.valueStream().map(signal -> signal.get("tokenId").asString())).containsExactly("t-" + run);
        api.call(get("/api/v1/signals/rejected?limit=0")).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("Expected limit between 1 and 1000, but found 0"));
    }
}
