package io.tokenflow.coordinator;

import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.UUID;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.tokenflow.support.OutsiderRedis;
import io.tokenflow.support.SigningKey;

/**
 * What the failure tests do as users: an operator ({@code olga}) on the REST API, and a Redis connection of its own
 * for the external workers ({@link ManualWorker}) that speak only the documented protocol. Close it after each test.
 */
final class OperatorApi implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MockMvc mvc;
    private final JdbcClient jdbc;
    private final OutsiderRedis outsider;
    private final int shards;
    private SigningKey key;

    OperatorApi(MockMvc mvc, JdbcClient jdbc, Environment environment) {
        this.mvc = mvc;
        this.jdbc = jdbc;
        this.outsider = OutsiderRedis.connect(environment);
        this.shards = environment.getProperty("tokenflow.redis.shards", Integer.class, 1);
    }

    RedisClusterCommands<String, String> redis() {
        return outsider.commands();
    }

    /** An external worker of the node type, on this API's Redis connection, reading every shard. */
    ManualWorker worker(String type) {
        return new ManualWorker(redis(), type, shards, key());
    }

    /** The external workers' key, created once through the API by an admin (the secret is shown that once). */
    SigningKey key() throws IllegalStateException {
        if (key == null) {
            try {
                JsonNode created = JSON.readTree(mvc.perform(post("/api/v1/worker-keys")
                                .contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"manual workers\"}")
                                .with(user("ada").roles("ADMIN")).with(csrf()))
                        .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString());
                key = new SigningKey(created.get("id").asString(), created.get("secret").asString());
            } catch (Exception e) {
                throw new IllegalStateException("Expected a worker key from POST /api/v1/worker-keys", e);
            }
        }
        return key;
    }

    /** A new task node type, taken by external workers only. */
    String customType(String prefix) {
        String type = prefix + "_" + UUID.randomUUID().toString().substring(0, 6);
        jdbc.sql("insert into node_types (tenant_id, name, display_name, kind, config_schema, created_by, created_at, "
                + "updated_at) values ('default', ?, ?, 'task', '{}'::jsonb, 'test', now(), now())")
                .params(type, type).update();
        return type;
    }

    /** Creates a workflow; returns its name. */
    String created(String document) throws Exception {
        JsonNode created = JSON.readTree(call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                .content(document)).andExpect(status().isCreated()).andReturn().getResponse().getContentAsString());
        return created.get("name").asString();
    }

    UUID start(String workflow) throws Exception {
        return start(workflow, "{}");
    }

    UUID start(String workflow, String inputs) throws Exception {
        JsonNode started = JSON.readTree(call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"workflow\": \"" + workflow + "\", \"inputs\": " + inputs + "}"))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString());
        return UUID.fromString(started.get("id").asString());
    }

    void awaitStatus(UUID run, String status) {
        await().atMost(Duration.ofSeconds(30)).until(() -> status.equals(read(get("/api/v1/runs/" + run))
                .get("status").asString()));
    }

    JsonNode read(MockHttpServletRequestBuilder request) throws Exception {
        return JSON.readTree(call(request).andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }

    ResultActions call(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("olga").roles("OPERATOR", "DESIGNER", "APPROVER")).with(csrf()));
    }

    @Override
    public void close() {
        outsider.close();
    }
}
