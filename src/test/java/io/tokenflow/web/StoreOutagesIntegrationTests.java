package io.tokenflow.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import io.tokenflow.security.ApiTokenService;
import io.tokenflow.security.Scope;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.support.OutsiderRedis;
import io.tokenflow.support.ProxiedServers;
import io.tokenflow.support.SigningKey;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * PostgreSQL or Redis going away, as a user of the API sees it: this application talks to both through
 * {@link io.tokenflow.support.TcpProxy proxies} that each test cuts and restores. What needs the missing server
 * answers 503 problem+json with Retry-After within seconds (never 401, never a hang), callers seen recently stay
 * authenticated (others are told their credentials cannot be checked now), what needs only the other server keeps
 * working, and everything works again once it is back.
 */
@IntegrationTest
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = {"tokenflow.security.users[0].username=otto",
        "tokenflow.security.users[0].password={noop}otto-secret",
        "tokenflow.security.users[0].roles=operator,designer", "tokenflow.security.users[1].username=uma",
        "tokenflow.security.users[1].password={noop}uma-secret", "tokenflow.security.users[1].roles=operator",
        "tokenflow.signals.key-cache-ttl=1s"})
@DirtiesContext // its datasource and Redis go through this class's proxies
class StoreOutagesIntegrationTests {

    private static final ProxiedServers SERVERS = ProxiedServers.start();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A bound generous for a slow, shared CI machine: the application gives up after 2 s (Redis) or 3 s (PG). */
    private static final Duration ANSWERS_WITHIN = Duration.ofSeconds(10);
    private static final Duration BACK_WITHIN = Duration.ofSeconds(60);

    @DynamicPropertySource
    static void throughTheProxies(DynamicPropertyRegistry registry) {
        SERVERS.register(registry);
    }

    @Autowired MockMvc mvc;
    @Autowired ApiTokenService tokens;
    @Autowired WorkerKeys workerKeys;
    @Autowired JdbcClient jdbc;
    @Autowired Environment environment;

    @AfterEach
    void restore() {
        SERVERS.postgres().restore();
        SERVERS.redis().restore();
    }

    @Test
    void whilePostgresIsDownSeenCallersStayAuthenticatedReadsAnswer503AndRunsInRedisCanBeStartedAndRead()
            throws Exception {
        String seen = token("seen");
        String unseen = token("unseen");
        JsonNode workflow = created(seen);
        String start = "{\"workflow\": \"" + workflow.get("id").asString() + "\", \"version\": "
                + workflow.get("version").asInt() + "}";
        assertThat(call(post("/api/v1/runs").content(start), seen).getStatus()).isEqualTo(201);
        assertThat(call(get("/api/v1/runs").with(httpBasic("otto", "otto-secret")), null).getStatus()).isEqualTo(200);

        SERVERS.postgres().cut();

        assertUnavailable(call(get("/api/v1/runs"), seen), "PostgreSQL");
        assertUnavailable(call(get("/api/v1/runs").with(httpBasic("otto", "otto-secret")), null), "PostgreSQL");
        assertUnavailable(call(get("/api/v1/runs"), unseen), "PostgreSQL");
        mvc.perform(formLogin("/login").user("otto").password("otto-secret")).andExpect(authenticated());
        mvc.perform(formLogin("/login").user("uma").password("uma-secret"))
                .andExpect(redirectedUrl("/login?unavailable"));
        assertThat(call(get("/actuator/health"), null).getContentAsString()).contains("\"status\":\"DOWN\"");
        UUID startedDuringOutage = id(call(post("/api/v1/runs").content(start), seen), 201);
        String keyed = start.replace("}", ", \"idempotencyKey\": \"outage-" + UUID.randomUUID() + "\"}");
        UUID keyedRun = id(call(post("/api/v1/runs").content(keyed), seen), 201);
        assertThat(id(call(post("/api/v1/runs").content(keyed), seen), 200)).isEqualTo(keyedRun);
        assertThat(id(call(get("/api/v1/runs/" + startedDuringOutage), seen), 200)).isEqualTo(startedDuringOutage);

        SERVERS.postgres().restore();

        await().atMost(BACK_WITHIN).untilAsserted(() -> assertThat(JSON.readTree(call(get("/api/v1/runs/"
                + startedDuringOutage), unseen).getContentAsString()).path("status").asString())
                .isEqualTo("COMPLETED"));
    }

    /**
     * An external worker's signed completion is checked with the worker key last read from PostgreSQL while
     * PostgreSQL is away (past the key cache's TTL), and completes its run.
     */
    @Test
    void whilePostgresIsDownSignedSignalsAreCheckedWithTheKeysLastReadAndRunsGoOn() throws Exception {
        String seen = token("worker-outage");
        String type = "outage_" + UUID.randomUUID().toString().substring(0, 6);
        jdbc.sql("insert into node_types (tenant_id, name, display_name, kind, config_schema, created_by, created_at, "
                + "updated_at) values ('default', ?, ?, 'task', '{}'::jsonb, 'test', now(), now())")
                .params(type, type).update();
        MockHttpServletResponse created = call(post("/api/v1/workflows").content("""
                {"name": "%s", "nodes": [{"id": "work", "type": "%s"}]}""".formatted(type, type)), seen);
        assertThat(created.getStatus()).as(created.getContentAsString()).isEqualTo(201);
        UUID run = id(call(post("/api/v1/runs").content("{\"workflow\": \"" + type + "\"}"), seen), 201);
        SigningKey key = SigningKey.of(workerKeys);
        try (OutsiderRedis redis = OutsiderRedis.connect(environment)) {
            StreamMessage<String, String> token = takeOne(redis, type);
            Map<String, String> body = token.getBody();
            redis.commands().xadd(OutsiderRedis.completionsStreamOf(token), key.signed(Map.of("kind", "started",
                    "token", body.get("token"), "run", body.get("run"), "node", "work", "worker", "outsider")));
            await().atMost(BACK_WITHIN).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? and "
                    + "event_type = 'node.started'").param(run).query(Long.class).single() == 1);

            SERVERS.postgres().cut();
            Thread.sleep(1_500); // past the key cache's TTL: the key is due to be read again, and cannot be
            redis.commands().xadd(OutsiderRedis.completionsStreamOf(token), key.signed(Map.of("token",
                    body.get("token"), "run", body.get("run"), "node", "work", "status", "completed", "output",
                    "{\"during\":\"outage\"}", "worker", "outsider")));
            await().atMost(BACK_WITHIN).untilAsserted(() -> assertThat(JSON.readTree(call(get("/api/v1/runs/" + run),
                    seen).getContentAsString()).path("status").asString()).isEqualTo("COMPLETED"));
        }
    }

    private static StreamMessage<String, String> takeOne(OutsiderRedis redis, String type) {
        String group = "wf.workers." + type;
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < until) {
            for (String stream : redis.commands().keys("wf.tasks." + type + ":*")) {
                try {
                    redis.commands().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group,
                            XGroupCreateArgs.Builder.mkstream(true));
                } catch (RedisBusyException exists) {
                    // created before
                }
                List<StreamMessage<String, String>> read = redis.commands().xreadgroup(Consumer.from(group, "o"),
                        XReadArgs.Builder.count(1).block(Duration.ofMillis(100)),
                        XReadArgs.StreamOffset.lastConsumed(stream));
                if (read != null && !read.isEmpty()) {
                    return read.get(0);
                }
            }
        }
        throw new AssertionError("Expected a token of " + type + " within 10 s, but none came");
    }

    @Test
    void whileRedisIsDownHealthSaysDownWithinFiveSecondsStartsAnswer503AndReadsGoOn(CapturedOutput output)
            throws Exception {
        String seen = token("redis");
        String start = "{\"workflow\": \"" + created(seen).get("name").asString() + "\"}";

        SERVERS.redis().cut();

        long asked = System.nanoTime();
        MockHttpServletResponse health = call(get("/actuator/health"), null);
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(5));
        assertThat(health.getStatus()).isEqualTo(503);
        assertThat(JSON.readTree(health.getContentAsString()).path("components").path("redis").path("status")
                .asString()).isEqualTo("DOWN");
        assertUnavailable(call(post("/api/v1/runs").content(start), seen), "Redis");
        assertThat(call(get("/api/v1/runs"), seen).getStatus()).isEqualTo(200);
        assertThat(output.getOut()).doesNotContain("Unexpected error in the API");

        SERVERS.redis().restore();

        await().atMost(BACK_WITHIN).until(() -> call(post("/api/v1/runs").content(start), seen).getStatus() == 201);
        await().atMost(BACK_WITHIN).until(() -> call(get("/actuator/health"), null).getStatus() == 200);
    }

    private String token(String name) {
        return tokens.issue("otto", name, Set.of(Scope.WORKFLOWS_READ, Scope.WORKFLOWS_WRITE, Scope.RUNS_READ,
                Scope.RUNS_WRITE), null).secret();
    }

    private JsonNode created(String token) throws Exception {
        String name = TestWorkflows.unique("outage");
        MockHttpServletResponse response = call(post("/api/v1/workflows")
                .content(TestWorkflows.fixture("valid/sequential", name)), token);
        assertThat(response.getStatus()).isEqualTo(201);
        return JSON.readTree(response.getContentAsString());
    }

    /** Performs the request (with the bearer token, if any) and checks it was answered in time. */
    private MockHttpServletResponse call(MockHttpServletRequestBuilder request, String token) throws Exception {
        if (token != null) {
            request.header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
        }
        long asked = System.nanoTime();
        MockHttpServletResponse response = mvc.perform(request.contentType(MediaType.APPLICATION_JSON)).andReturn()
                .getResponse();
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("time to answer " + request)
                .isLessThan(ANSWERS_WITHIN);
        return response;
    }

    private static UUID id(MockHttpServletResponse response, int status) throws Exception {
        assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(status);
        return UUID.fromString(JSON.readTree(response.getContentAsString()).get("id").asString());
    }

    private static void assertUnavailable(MockHttpServletResponse response, String store) throws Exception {
        assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(503);
        assertThat(response.getHeader(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
        assertThat(response.getContentType()).startsWith(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        assertThat(JSON.readTree(response.getContentAsString()).path("detail").asString())
                .startsWith("Expected " + store + " to answer, but it is unreachable");
    }
}
