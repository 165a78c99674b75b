package io.tokenflow.waits;

import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What the timer and signal tests do as users: an operator ({@code olga}) on the REST API, and the event log. */
record WaitingRunsApi(MockMvc mvc, JdbcClient jdbc) {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** Creates a workflow from a document whose {@code %s} is its (unique) name; returns the name. */
    String created(String document) throws Exception {
        String name = "waits-" + UUID.randomUUID().toString().substring(0, 8);
        call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON).content(document.formatted(name)))
                .andExpect(status().isCreated());
        return name;
    }

    UUID start(String workflow, String inputs) throws Exception {
        JsonNode started = JSON.readTree(call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"workflow\": \"" + workflow + "\", \"inputs\": " + inputs + "}"))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString());
        return UUID.fromString(started.get("id").asString());
    }

    ResultActions signal(String name, String body) throws Exception {
        return call(post("/api/v1/signals/" + name).contentType(MediaType.APPLICATION_JSON).content(body));
    }

    JsonNode run(UUID run) throws Exception {
        return JSON.readTree(call(get("/api/v1/runs/" + run)).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString());
    }

    void awaitStatus(UUID run, String expected) {
        await().atMost(Duration.ofSeconds(40)).until(() -> expected.equals(jdbc.sql("select status from runs "
                + "where id = ?").param(run).query(String.class).optional().orElse(null)));
    }

    void awaitLogged(UUID run, String type) {
        await().atMost(Duration.ofSeconds(40)).until(() -> count(run, type, null) > 0);
    }

    /** How many events of the type the run's log holds (of one node, or of any when {@code node} is null). */
    long count(UUID run, String type, String node) {
        return node == null
                ? jdbc.sql("select count(*) from event_log where run_id = ? and event_type = ?").params(run, type)
                        .query(Long.class).single()
                : jdbc.sql("select count(*) from event_log where run_id = ? and event_type = ? and node_id = ?")
                        .params(run, type, node).query(Long.class).single();
    }

    /** The data of the run's first event of the type at the node. */
    JsonNode data(UUID run, String type, String node) {
        return JSON.readTree(jdbc.sql("select data::text from event_log where run_id = ? and event_type = ? and "
                + "node_id = ? order by seq limit 1").params(run, type, node).query(String.class).single());
    }

    /** When the run's first event of the type at the node happened (epoch ms). */
    long at(UUID run, String type, String node) {
        return jdbc.sql("select (extract(epoch from occurred_at) * 1000)::bigint from event_log where run_id = ? and "
                + "event_type = ? and node_id = ? order by seq limit 1").params(run, type, node).query(Long.class)
                .single();
    }

    List<String> types(UUID run) {
        return jdbc.sql("select event_type from event_log where run_id = ? order by seq").param(run)
                .query(String.class).list();
    }

    ResultActions call(org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder request)
            throws Exception {
        return mvc.perform(request.with(user("olga").roles("OPERATOR", "DESIGNER")).with(csrf()));
    }
}
