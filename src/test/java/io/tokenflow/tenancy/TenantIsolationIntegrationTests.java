package io.tokenflow.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.tokenflow.IntegrationTest;
import io.tokenflow.cas.CasStore;
import io.tokenflow.security.ApiTokenService;
import io.tokenflow.security.Scope;
import io.tokenflow.support.ApiEndpoints;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tenants as their users meet them, through the REST API with real bearer tokens: the authorization matrix's
 * "wrong tenant" column (every endpoint that names a tenant's workflow, run, approval, dead letter, token or worker key
 * answers 404 to a token of another tenant holding every scope, and changes nothing; every list leaves the other
 * tenant's rows out), signals reach only their tenant's runs, and a tenant's quota of runs in flight answers 429.
 */
@IntegrationTest
@AutoConfigureMockMvc
class TenantIsolationIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Endpoints that own nothing of a tenant, with why. Every other endpoint is checked: the matrix fails when an
     * endpoint is added without a row here or a substitution below.
     */
    private static final Map<String, String> NOT_TENANT_OWNED = Map.ofEntries(
            Map.entry("GET /api/v1/schema/workflow", "public"),
            Map.entry("POST /api/v1/workflows/compile", "compiles the body, reads no stored workflow of a tenant"),
            Map.entry("GET /api/v1/users", "people are administered across tenants, by admins"),
            Map.entry("POST /api/v1/users", "people are administered across tenants, by admins"),
            Map.entry("PATCH /api/v1/users/{username}", "people are administered across tenants, by admins"),
            Map.entry("GET /api/v1/audit", "the audit log is the administrators', across tenants"),
            Map.entry("GET /api/v1/tenants", "tenants are administered by admins"),
            Map.entry("POST /api/v1/tenants", "tenants are administered by admins"),
            Map.entry("PATCH /api/v1/tenants/{id}", "tenants are administered by admins"),
            Map.entry("POST /api/v1/worker-keys/built-in/rotate", "the built-in key serves every tenant"),
            Map.entry("PUT /api/v1/agents/{name}", "agent names are per tenant: checked after the matrix (another "
                    + "tenant registers its own agent under the same name)"),
            Map.entry("POST /api/v1/signals/{name}", "checked by its own test below (a signal names no object)"),
            Map.entry("POST /api/v1/dlq/{id}/reprocess", "checked with the dead letter's other endpoints"),
            Map.entry("POST /api/v1/tokens", "issues a token in the caller's own tenant"),
            Map.entry("POST /api/v1/worker-keys", "creates a key in the caller's own tenant"));

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired ApiTokenService tokens;
    @Autowired Clock clock;
    @Autowired TenantHops hops;
    @Autowired CasStore cas;
    @Autowired @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings;

    private String suffix;
    private String ownerToken;

    @BeforeEach
    void people() throws Exception {
        suffix = UUID.randomUUID().toString().substring(0, 8);
        String owner = "owner-" + suffix;
        jdbc.sql("insert into users (username, password_hash, roles, source, created_at, updated_at) values (?, "
                + "'{noop}unused-password-1', '[\"designer\", \"operator\", \"approver\", \"admin\"]', 'ADMIN', now(), "
                + "now())").param(owner).update();
        ownerToken = tokens.issueIn(owner, "default", "owner", Set.of(Scope.values()), null).secret();
    }

    /** A tenant with one person in it (every role) and their token holding every scope. */
    private String tenantWithToken(String id, Integer quota) throws Exception {
        call(HttpMethod.POST, "/api/v1/tenants", ownerToken, "{\"id\": \"" + id + "\", \"name\": \"Tenant " + id
                + "\", \"maxRunsInFlight\": " + quota + "}", 201);
        String person = "member-" + id;
        call(HttpMethod.POST, "/api/v1/users", ownerToken, "{\"username\": \"" + person + "\", \"roles\": [\"designer\", "
                + "\"operator\", \"approver\", \"admin\"], \"tenants\": [\"" + id + "\"], \"password\": "
                + "\"a-long-password-1\"}", 201);
        return tokens.issueIn(person, id, "all", Set.of(Scope.values()), null).secret();
    }

    @Test
    void anotherTenantsTokenFindsNothingOfTheTenantOnAnyEndpointAndChangesNothing() throws Exception {
        String outsider = tenantWithToken("other-" + suffix, null);
        String workflowName = "tenant-owned-" + suffix;
        JsonNode workflow = call(HttpMethod.POST, "/api/v1/workflows", ownerToken, """
                {"name": "%s", "nodes": [
                  {"id": "ask", "type": "human", "human": {"approvers": ["role:approver"], "title": "Ship it?"}},
                  {"id": "done", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "ask", "to": "done"}]}""".formatted(workflowName), 201);
        String workflowId = workflow.get("id").asString();
        call(HttpMethod.PUT, "/api/v1/workflows/" + workflowId + "/tags/prod", ownerToken, "{\"version\": 1}", 200);
        UUID run = UUID.fromString(call(HttpMethod.POST, "/api/v1/runs", ownerToken, "{\"workflow\": \"" + workflowName
                + "\"}", 201).get("id").asString());
        UUID approval = await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.sql("select id from approvals where "
                + "run_id = ?").param(run).query(UUID.class).optional(), found -> found.isPresent()).orElseThrow();
        UUID deadLetter = UUID.randomUUID();
        jdbc.sql("insert into dlq (id, run_id, node_id, node_type, token_id, error_kind, error, created_at) values "
                + "(?, ?, 'done', 'function', ?, 'PERMANENT', 'parked by the test', now())")
                .params(deadLetter, run, "tok-" + suffix).update();
        String ownerTokenId = call(HttpMethod.GET, "/api/v1/tokens", ownerToken, null, 200).get(0).get("id").asString();
        String key = call(HttpMethod.POST, "/api/v1/worker-keys", ownerToken, "{\"name\": \"owners\"}", 201)
                .get("id").asString();

        // content the tenant's run stored (as a large payload would be; the CAS test below makes one with a run)
        String hash = cas.put(CurrentTenant.DEFAULT, ("{\"owned\": \"" + suffix + "\"}").getBytes(UTF_8),
                "application/json").substring("cas://".length());
        Map<String, String> ids = Map.of("workflow", workflowId, "version", "1", "tag", "prod", "trigger", "nightly",
                "to", "1", "node", "ask", "hash", hash);
        String type = "t_" + suffix;
        call(HttpMethod.PUT, "/api/v1/node-types/" + type, ownerToken, "{\"displayName\": \"Owners' type\"}", 200);
        String agent = "agent-" + suffix;
        String agentUrl = "http://owners-" + suffix + ".example/agent";
        call(HttpMethod.PUT, "/api/v1/agents/" + agent, ownerToken, "{\"url\": \"" + agentUrl + "\"}", 200);
        Map<String, String> idOfPrefix = new LinkedHashMap<>();
        idOfPrefix.put("/api/v1/node-types/{name}", type);
        idOfPrefix.put("/api/v1/agents/{name}", agent);
        idOfPrefix.put("/api/v1/runs/{id}", run.toString());
        idOfPrefix.put("/api/v1/approvals/{id}", approval.toString());
        idOfPrefix.put("/api/v1/dlq/{id}", deadLetter.toString());
        idOfPrefix.put("/api/v1/tokens/{id}", ownerTokenId);
        idOfPrefix.put("/api/v1/worker-keys/{id}", key);
        Set<String> owned = List.of(workflowId, workflowName, run.toString(), approval.toString(),
                deadLetter.toString(), ownerTokenId, key, type, agentUrl).stream()
                .collect(java.util.stream.Collectors.toSet());

        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (String endpoint : ApiEndpoints.mapped(mappings)) {
            if (NOT_TENANT_OWNED.containsKey(endpoint)) {
                continue;
            }
            int space = endpoint.indexOf(' ');
            HttpMethod method = HttpMethod.valueOf(endpoint.substring(0, space));
            String pattern = endpoint.substring(space + 1);
            checked++;
            if (!pattern.contains("{")) {
                if (method == HttpMethod.GET) {
                    MockHttpServletResponse response = raw(method, pattern, outsider, null);
                    String body = response.getContentAsString();
                    owned.stream().filter(body::contains).forEach(id -> wrong.add(endpoint + " lists " + id
                            + " of another tenant"));
                } else if (endpoint.equals("POST /api/v1/runs")) {
                    expect404(wrong, endpoint, method, pattern, outsider, "{\"workflow\": \"" + workflowName + "\"}");
                } else if (endpoint.equals("POST /api/v1/workflows")) {
                    // names are the tenant's own: the other tenant may take the same one
                    MockHttpServletResponse created = raw(method, pattern, outsider, """
                            {"name": "%s", "nodes": [{"id": "a", "type": "function", "config": {"function": "echo"}}],
                             "edges": []}""".formatted(workflowName));
                    if (created.getStatus() != 201) {
                        wrong.add(endpoint + ": expected 201 for a name another tenant has, but got "
                                + created.getStatus() + " " + created.getContentAsString());
                    }
                } else {
                    wrong.add(endpoint + ": no check written for it; add one or a row to NOT_TENANT_OWNED");
                }
                continue;
            }
            String path = pattern;
            for (Map.Entry<String, String> prefix : idOfPrefix.entrySet()) {
                if (path.startsWith(prefix.getKey())) {
                    path = prefix.getValue().isEmpty() ? path : path.replace("{id}", prefix.getValue())
                            .replace("{name}", prefix.getValue());
                }
            }
            for (Map.Entry<String, String> id : ids.entrySet()) {
                path = path.replace("{" + id.getKey() + "}", id.getValue());
            }
            if (path.endsWith("/diff")) {
                path += "?from=1&to=1";
            }
            if (path.contains("{")) {
                wrong.add(endpoint + ": no id to put in " + path + "; add one or a row to NOT_TENANT_OWNED");
                continue;
            }
            String body = endpoint.startsWith("POST /api/v1/runs/{id}/patch") ? "[{\"op\": \"test\", \"path\": "
                    + "\"/name\", \"value\": \"x\"}]" : endpoint.contains("/decide") ? "{\"decision\": \"approve\"}"
                    : endpoint.startsWith("PATCH /api/v1/workflows") ? "[]"
                    : endpoint.startsWith("PUT /api/v1/workflows") ? "{\"version\": 1}" : "{}";
            if (endpoint.equals("PUT /api/v1/node-types/{name}")) {
                // a type's name is its task stream's: unique across tenants, so another tenant's is refused
                MockHttpServletResponse taken = raw(method, path, outsider, body);
                if (taken.getStatus() != 409) {
                    wrong.add(endpoint + " (" + path + "): expected 409, but got " + taken.getStatus());
                }
                continue;
            }
            expect404(wrong, endpoint, method, path, outsider, body);
            if (method == HttpMethod.GET) {
                // the ids are real: the tenant's own token reads the same path
                MockHttpServletResponse own = raw(method, path, ownerToken, null);
                if (own.getStatus() != 200) {
                    wrong.add(endpoint + " (" + path + "): the owning tenant's token got " + own.getStatus());
                }
            }
        }

        System.out.printf("Wrong-tenant column: %d endpoints checked with another tenant's all-scope token, "
                + "%d not tenant-owned, %d wrong%n", checked, NOT_TENANT_OWNED.size(), wrong.size());
        assertThat(wrong).isEmpty();
        // nothing of the tenant changed, and its own token sees all of it
        assertThat(jdbc.sql("select status from approvals where id = ?").param(approval).query(String.class).single())
                .isEqualTo("PENDING");
        assertThat(jdbc.sql("select resolved_at is null from dlq where id = ?").param(deadLetter).query(Boolean.class)
                .single()).isTrue();
        assertThat(jdbc.sql("select revoked_at is null from api_tokens where id = ?::uuid").param(ownerTokenId)
                .query(Boolean.class).single()).isTrue();
        assertThat(jdbc.sql("select revoked_at is null from worker_keys where id = ?").param(key).query(Boolean.class)
                .single()).isTrue();
        assertThat(call(HttpMethod.GET, "/api/v1/runs/" + run, ownerToken, null, 200).get("status").asString())
                .isEqualTo("RUNNING");
        assertThat(raw(HttpMethod.GET, "/api/v1/approvals", ownerToken, null).getContentAsString())
                .contains(approval.toString());
        assertThat(raw(HttpMethod.GET, "/api/v1/workflows?q=" + workflowName, ownerToken, null).getContentAsString())
                .contains(workflowName);
        assertThat(call(HttpMethod.GET, "/api/v1/node-types/" + type, ownerToken, null, 200).get("displayName")
                .asString()).isEqualTo("Owners' type");
        // another tenant's workflow cannot use the type (its tokens would go to the owner's workers)
        MockHttpServletResponse foreignType = raw(HttpMethod.POST, "/api/v1/workflows", outsider, """
                {"name": "uses-%s", "nodes": [{"id": "a", "type": "%s"}], "edges": []}""".formatted(type, type));
        assertThat(foreignType.getStatus()).isEqualTo(422);
        JsonNode diagnostic = JSON.readTree(foreignType.getContentAsString()).get("diagnostics").get(0);
        assertThat(diagnostic.get("pointer").asString()).isEqualTo("/nodes/0/type");
        assertThat(diagnostic.get("message").asString()).contains("but found '" + type + "'")
                .doesNotContain(type + ",");
        // an agent's name is the tenant's own: the other tenant registers and removes its own under it
        call(HttpMethod.PUT, "/api/v1/agents/" + agent, outsider, "{\"url\": \"http://outsider.example/a\"}", 200);
        assertThat(call(HttpMethod.GET, "/api/v1/agents/" + agent, outsider, null, 200).get("url").asString())
                .isEqualTo("http://outsider.example/a");
        call(HttpMethod.DELETE, "/api/v1/agents/" + agent, outsider, null, 204);
        assertThat(call(HttpMethod.GET, "/api/v1/agents/" + agent, ownerToken, null, 200).get("url").asString())
                .isEqualTo(agentUrl);
    }

    @Test
    void aSignalReachesOnlyTheRunsOfTheTenantItIsSentIn() throws Exception {
        String outsider = tenantWithToken("signals-" + suffix, null);
        String signal = "paid-" + suffix;
        String waiting = """
                {"name": "%s", "nodes": [
                  {"id": "paid", "type": "signal", "signal": {"name": "%s", "key": "order-1"}},
                  {"id": "ship", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "paid", "to": "ship"}]}""";
        call(HttpMethod.POST, "/api/v1/workflows", ownerToken, waiting.formatted("ours-" + suffix, signal), 201);
        UUID run = UUID.fromString(call(HttpMethod.POST, "/api/v1/runs", ownerToken, "{\"workflow\": \"ours-" + suffix
                + "\"}", 201).get("id").asString());
        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? "
                + "and event_type = 'node.waiting'").param(run).query(Long.class).single() > 0);

        MockHttpServletResponse refused = raw(HttpMethod.POST, "/api/v1/signals/" + signal, outsider,
                "{\"key\": \"order-1\", \"message_id\": \"m-1\"}");
        assertThat(refused.getStatus()).isEqualTo(404);
        assertThat(call(HttpMethod.GET, "/api/v1/runs/" + run, ownerToken, null, 200).get("status").asString())
                .isEqualTo("RUNNING");
        // the other tenant's message id does not stand in for ours
        JsonNode delivered = call(HttpMethod.POST, "/api/v1/signals/" + signal, ownerToken,
                "{\"key\": \"order-1\", \"message_id\": \"m-1\"}", 200);
        assertThat(delivered.get("delivered").get(0).get("runId").asString()).isEqualTo(run.toString());
    }

    @Test
    void aTenantBeyondItsQuotaOfRunsInFlightIsAnswered429UntilOneEnds() throws Exception {
        String tenant = "quota-" + suffix;
        String member = tenantWithToken(tenant, 2);
        String name = "held-" + suffix;
        String workflowId = call(HttpMethod.POST, "/api/v1/workflows", member, """
                {"name": "%s", "nodes": [
                  {"id": "ask", "type": "human", "human": {"approvers": ["role:approver"]}}], "edges": [],
                 "triggers": [{"id": "orders", "type": "webhook", "auth": "secret"}]}"""
                .formatted(name), 201).get("id").asString();
        String secret = call(HttpMethod.POST, "/api/v1/workflows/" + workflowId + "/triggers/orders/secret", member,
                null, 200).get("secret").asString();
        String start = "{\"workflow\": \"" + name + "\"}";
        UUID first = UUID.fromString(call(HttpMethod.POST, "/api/v1/runs", member, start, 201).get("id").asString());
        call(HttpMethod.POST, "/api/v1/runs", member, start, 201);

        MockHttpServletResponse refused = raw(HttpMethod.POST, "/api/v1/runs", member, start);
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getContentType()).startsWith("application/problem+json");
        assertThat(refused.getHeader(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
        JsonNode problem = JSON.readTree(refused.getContentAsString());
        assertThat(problem.get("detail").asString()).contains("tenant '" + tenant + "'").contains("2 runs in flight");
        assertThat(problem.get("limit").asInt()).isEqualTo(2);
        // a webhook of the tenant's workflow (by id: names are the tenant's own) is refused alike, and recorded
        MockHttpServletResponse hook = mvc.perform(request(HttpMethod.POST, "/hooks/" + workflowId + "/orders")
                .contentType(MediaType.APPLICATION_JSON).content("{}").header("X-Tokenflow-Secret", secret))
                .andReturn().getResponse();
        assertThat(hook.getStatus()).as(hook.getContentAsString()).isEqualTo(429);
        assertThat(hook.getHeader(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
        assertThat(call(HttpMethod.GET, "/api/v1/workflows/" + workflowId + "/triggers/refusals", member, null, 200)
                .get(0).get("status").asInt()).isEqualTo(429);
        // the default tenant, without a quota, is not held back by another's
        call(HttpMethod.POST, "/api/v1/workflows", ownerToken, """
                {"name": "%s", "nodes": [{"id": "a", "type": "function", "config": {"function": "echo"}}],
                 "edges": []}""".formatted(name), 201);
        call(HttpMethod.POST, "/api/v1/runs", ownerToken, start, 201);

        call(HttpMethod.POST, "/api/v1/runs/" + first + "/cancel", member, "{}", 202);
        await().atMost(Duration.ofSeconds(20)).until(() -> raw(HttpMethod.POST, "/api/v1/runs", member, start)
                .getStatus() == 201);
        // raising the quota takes effect at once on this instance
        call(HttpMethod.PATCH, "/api/v1/tenants/" + tenant, ownerToken, "{\"maxRunsInFlight\": null}", 200);
        call(HttpMethod.POST, "/api/v1/runs", member, start, 201);
    }

    @Test
    void aTenantWhoseRunsMadeItsHopsOfTheLastMinuteIsAnswered429AndItsRunsGoOn() throws Exception {
        String tenant = "hops-" + suffix;
        String member = tenantWithToken(tenant, null);
        call(HttpMethod.PATCH, "/api/v1/tenants/" + tenant, ownerToken, "{\"maxHopsPerMinute\": 3}", 200);
        String name = "three-hops-" + suffix;
        call(HttpMethod.POST, "/api/v1/workflows", member, """
                {"name": "%s", "nodes": [
                  {"id": "a", "type": "function", "config": {"function": "echo"}},
                  {"id": "b", "type": "function", "config": {"function": "echo"}},
                  {"id": "c", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}]}""".formatted(name), 201);
        String start = "{\"workflow\": \"" + name + "\"}";
        String first = call(HttpMethod.POST, "/api/v1/runs", member, start, 201).get("id").asString();
        await().atMost(Duration.ofSeconds(20)).until(() -> call(HttpMethod.GET, "/api/v1/runs/" + first, member, null,
                200).get("status").asString().equals("COMPLETED"));

        // the supervisor counts the three hops as it logs them; then starts are refused until the minute has passed
        MockHttpServletResponse refused = await().atMost(Duration.ofSeconds(20))
                .until(() -> raw(HttpMethod.POST, "/api/v1/runs", member, start),
                        response -> response.getStatus() != 201);
        assertThat(refused.getStatus()).as(refused.getContentAsString()).isEqualTo(429);
        assertThat(refused.getContentType()).startsWith("application/problem+json");
        assertThat(Integer.parseInt(refused.getHeader(HttpHeaders.RETRY_AFTER))).isBetween(1, 60);
        JsonNode problem = JSON.readTree(refused.getContentAsString());
        assertThat(problem.get("detail").asString()).contains("tenant '" + tenant + "'").contains("fewer than 3 hops");
        assertThat(problem.get("quota").asString()).isEqualTo("maxHopsPerMinute");
        assertThat(problem.get("limit").asInt()).isEqualTo(3);
        assertThat(problem.get("hopsLastMinute").asLong()).isGreaterThanOrEqualTo(3);
        // the default tenant, without the quota, is not held back, and its hops are not counted
        call(HttpMethod.POST, "/api/v1/workflows", ownerToken, """
                {"name": "%s", "nodes": [{"id": "a", "type": "function", "config": {"function": "echo"}}],
                 "edges": []}""".formatted(name), 201);
        call(HttpMethod.POST, "/api/v1/runs", ownerToken, start, 201);
        assertThat(hops.lastMinute("default")).isZero();
        // the quota shows in the tenant list; removing it lets starts through at once on this instance
        JsonNode listed = call(HttpMethod.GET, "/api/v1/tenants", ownerToken, null, 200);
        assertThat(listed.findValues("id").stream().map(JsonNode::asString).toList()).contains(tenant);
        call(HttpMethod.PATCH, "/api/v1/tenants/" + tenant, ownerToken, "{\"maxHopsPerMinute\": null}", 200);
        call(HttpMethod.POST, "/api/v1/runs", member, start, 201);
        MockHttpServletResponse badQuota = raw(HttpMethod.PATCH, "/api/v1/tenants/" + tenant, ownerToken,
                "{\"maxHopsPerMinute\": 0}");
        assertThat(badQuota.getStatus()).isEqualTo(400);
        assertThat(JSON.readTree(badQuota.getContentAsString()).get("pointer").asString())
                .isEqualTo("/maxHopsPerMinute");
    }

    @Test
    void largePayloadsAreStoredForTheRunsTenantAndOnlyItReadsThem() throws Exception {
        String tenant = "cas-" + suffix;
        String member = tenantWithToken(tenant, null);
        String name = "large-" + suffix;
        String workflow = """
                {"name": "%s", "nodes": [{"id": "a", "type": "function", "config": {"function": "echo"}}],
                 "edges": []}""".formatted(name);
        call(HttpMethod.POST, "/api/v1/workflows", member, workflow, 201);
        String blob = "large " + suffix + " " + "x".repeat(70_000);
        String start = "{\"workflow\": \"" + name + "\", \"inputs\": {\"blob\": \"" + blob + "\"}}";
        UUID run = UUID.fromString(call(HttpMethod.POST, "/api/v1/runs", member, start, 201).get("id").asString());
        await().atMost(Duration.ofSeconds(20)).until(() -> call(HttpMethod.GET, "/api/v1/runs/" + run, member, null,
                200).get("status").asString().equals("COMPLETED"));
        String hash = await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.sql("select data->'output'->>'$ref' "
                        + "from event_log where run_id = ? and event_type = 'node.completed'").param(run)
                .query(String.class).optional(), found -> found.isPresent()).orElseThrow().substring("cas://".length());

        // the run's tenant reads it; another tenant's token, holding every scope, finds nothing there
        assertThat(call(HttpMethod.GET, "/api/v1/cas/" + hash, member, null, 200).get("blob").asString())
                .isEqualTo(blob);
        assertThat(raw(HttpMethod.GET, "/api/v1/cas/" + hash, ownerToken, null).getStatus()).isEqualTo(404);
        // the same content stored by a run of the other tenant is that tenant's too (kept once)
        call(HttpMethod.POST, "/api/v1/workflows", ownerToken, workflow, 201);
        UUID own = UUID.fromString(call(HttpMethod.POST, "/api/v1/runs", ownerToken, start, 201).get("id").asString());
        await().atMost(Duration.ofSeconds(20)).until(() -> call(HttpMethod.GET, "/api/v1/runs/" + own, ownerToken,
                null, 200).get("status").asString().equals("COMPLETED"));
        assertThat(call(HttpMethod.GET, "/api/v1/cas/" + hash, ownerToken, null, 200).get("blob").asString())
                .isEqualTo(blob);
        assertThat(jdbc.sql("select count(*) from cas_objects where hash = ?").param(hash).query(Long.class).single())
                .isEqualTo(1);
    }

    @Test
    void peopleBelongToExistingTenantsAndATokenStopsWhenItsOwnerLeavesItsTenant() throws Exception {
        String tenant = "moving-" + suffix;
        String member = tenantWithToken(tenant, null);
        call(HttpMethod.GET, "/api/v1/workflows", member, null, 200);

        MockHttpServletResponse unknown = raw(HttpMethod.POST, "/api/v1/users", ownerToken, "{\"username\": "
                + "\"nowhere-" + suffix + "\", \"tenants\": [\"default\", \"no-such-" + suffix + "\"]}");
        assertThat(unknown.getStatus()).isEqualTo(400);
        assertThat(JSON.readTree(unknown.getContentAsString()).get("pointer").asString()).isEqualTo("/tenants/1");
        MockHttpServletResponse none = raw(HttpMethod.POST, "/api/v1/users", ownerToken, "{\"username\": "
                + "\"nowhere-" + suffix + "\", \"tenants\": []}");
        assertThat(none.getStatus()).isEqualTo(400);
        assertThat(raw(HttpMethod.POST, "/api/v1/tenants", ownerToken, "{\"id\": \"Not An Id\", \"name\": \"x\"}")
                .getStatus()).isEqualTo(400);
        assertThat(raw(HttpMethod.POST, "/api/v1/tenants", ownerToken, "{\"id\": \"" + tenant + "\", \"name\": "
                + "\"again\"}").getStatus()).isEqualTo(409);

        call(HttpMethod.PATCH, "/api/v1/users/member-" + tenant, ownerToken, "{\"tenants\": [\"default\"]}", 200);
        await().atMost(Duration.ofSeconds(40)).until(() -> raw(HttpMethod.GET, "/api/v1/workflows", member, null)
                .getStatus() == 401);
    }

    private void expect404(List<String> wrong, String endpoint, HttpMethod method, String path, String token,
                           String body) throws Exception {
        MockHttpServletResponse response = raw(method, path, token, body);
        if (response.getStatus() != 404) {
            wrong.add(endpoint + " (" + path + "): expected 404, but got " + response.getStatus() + " "
                    + response.getContentAsString());
        }
    }

    private JsonNode call(HttpMethod method, String path, String token, String body, int expected) throws Exception {
        MockHttpServletResponse response = raw(method, path, token, body);
        assertThat(response.getStatus()).as(method + " " + path + ": " + response.getContentAsString())
                .isEqualTo(expected);
        String text = response.getContentAsString();
        return text.isEmpty() ? JSON.createObjectNode() : JSON.readTree(text);
    }

    private MockHttpServletResponse raw(HttpMethod method, String path, String token, String body) throws Exception {
        var request = request(method, path).header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
        if (body != null) {
            boolean patch = body.startsWith("[");
            request.contentType(patch ? MediaType.valueOf("application/json-patch+json") : MediaType.APPLICATION_JSON)
                    .content(body);
            if (path.startsWith("/api/v1/workflows/") && method != HttpMethod.GET) {
                request.header(HttpHeaders.IF_MATCH, "\"1\"");
            }
        }
        return mvc.perform(request).andReturn().getResponse();
    }
}
