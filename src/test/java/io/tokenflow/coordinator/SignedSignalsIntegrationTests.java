package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.lettuce.core.StreamMessage;
import io.tokenflow.cas.CasStore;
import io.tokenflow.security.ApiTokenService;
import io.tokenflow.security.Scope;
import io.tokenflow.support.OutsiderRedis;
import io.tokenflow.support.SigningKey;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Signed worker signals as an admin and an external worker meet them: keys made and revoked on the REST API, a worker
 * speaking only the Redis protocol (docs/worker-protocol.md §6). Unsigned, forged, altered, replayed signals and those
 * of unknown or revoked keys are refused, recorded with the reason, and change nothing: the genuine completion after
 * them still completes the node, and rotating keys (new key, move the worker, revoke the old) loses no signal.
 */
class SignedSignalsIntegrationTests extends OperatorTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired ApiTokenService tokens;
    @Autowired CasStore cas;

    @Test
    void refusesUnsignedForgedAlteredReplayedAndUnknownKeySignalsAndTheGenuineOneStillCompletes() throws Exception {
        String type = api.customType("signed");
        String workflow = api.created("""
                {"name": "signed-%s", "nodes": [{"id": "work", "type": "%s"}]}""".formatted(type, type));
        UUID run = api.start(workflow);
        StreamMessage<String, String> token = api.worker(type).takeOne(Duration.ofSeconds(10));
        Map<String, String> completion = completion(token, "{\"genuine\":false}");
        SigningKey key = created("geocoder");
        String stream = OutsiderRedis.completionsStreamOf(token);

        api.redis().xadd(stream, completion);
        api.redis().xadd(stream, new SigningKey(key.id(), "not-the-secret").signed(completion));
        Map<String, String> altered = new LinkedHashMap<>(key.signed(completion));
        altered.put("output", "{\"genuine\":\"altered\"}");
        api.redis().xadd(stream, altered);
        api.redis().xadd(stream, key.signedAt(completion, System.currentTimeMillis() - Duration.ofMinutes(10)
                .toMillis()));
        api.redis().xadd(stream, new SigningKey("wk_0000000000000000", key.secret()).signed(completion));
        await().atMost(Duration.ofSeconds(20)).until(() -> refusals(run).size() == 5);

        // the coordinator's threads may handle them in any order
        assertThat(refusals(run).valueStream().map(refusal -> refusal.get("reason").asString())
                .map(SignedSignalsIntegrationTests::kind)).containsExactlyInAnyOrder("unknown key", "replayed",
                "does not match", "does not match", "unsigned");
        assertThat(api.read(get("/api/v1/runs/" + run)).get("status").asString()).isEqualTo("RUNNING");

        api.redis().xadd(stream, key.signed(completion(token, "{\"genuine\":true}")));
        api.awaitStatus(run, "COMPLETED");
        assertThat(api.read(get("/api/v1/runs/" + run)).at("/outputs/work/genuine").asBoolean()).isTrue();
    }

    @Test
    void keysRotateWithoutLosingASignalAndARevokedKeyIsRefusedFromThenOn() throws Exception {
        String type = api.customType("rotated");
        String workflow = api.created("""
                {"name": "rotated-%s", "nodes": [{"id": "work", "type": "%s"}]}""".formatted(type, type));
        SigningKey old = created("billing v1");
        UUID before = api.start(workflow);
        StreamMessage<String, String> first = api.worker(type).takeOne(Duration.ofSeconds(10));
        // signed and written with the old key before it is revoked: still good after the revocation
        api.redis().xadd(OutsiderRedis.completionsStreamOf(first), old.signed(completion(first, "{\"by\":\"v1\"}")));

        SigningKey renewed = created("billing v2");
        admin(delete("/api/v1/worker-keys/" + old.id())).andExpect(status().isOk())
                .andExpect(jsonPath("$.revokedAt").isNotEmpty());
        api.awaitStatus(before, "COMPLETED");

        UUID after = api.start(workflow);
        StreamMessage<String, String> second = api.worker(type).takeOne(Duration.ofSeconds(10));
        String stream = OutsiderRedis.completionsStreamOf(second);
        api.redis().xadd(stream, old.signed(completion(second, "{\"by\":\"v1\"}")));
        await().atMost(Duration.ofSeconds(20)).until(() -> refusals(after).size() == 1);
        assertThat(refusals(after).get(0).get("reason").asString()).contains("was revoked at");
        api.redis().xadd(stream, renewed.signed(completion(second, "{\"by\":\"v2\"}")));
        api.awaitStatus(after, "COMPLETED");
        assertThat(api.read(get("/api/v1/runs/" + after)).at("/outputs/work/by").asString()).isEqualTo("v2");

        JsonNode listed = JSON.readTree(admin(get("/api/v1/worker-keys")).andExpect(status().isOk()).andReturn()
                .getResponse().getContentAsString());
        JsonNode oldListed = listed.valueStream().filter(k -> k.get("id").asString().equals(old.id())).findFirst()
                .orElseThrow();
        assertThat(oldListed.get("revokedAt").isNull()).isFalse();
        assertThat(oldListed.get("name").asString()).isEqualTo("billing v1");
        assertThat(listed.toString()).doesNotContain(old.secret(), renewed.secret());
    }

    @Test
    void aKeyLimitedToANodeTypeReportsOnlyOnThatTypesNodes() throws Exception {
        String geocode = api.customType("geocode");
        String billing = api.customType("billing");
        String workflow = api.created("""
                {"name": "typed-%s", "nodes": [{"id": "where", "type": "%s"}, {"id": "charge", "type": "%s"}],
                 "edges": [{"from": "where", "to": "charge"}]}""".formatted(geocode, geocode, billing));
        JsonNode limited = JSON.readTree(admin(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\": \"geocoder\", \"nodeTypes\": [\"" + geocode + "\"]}"))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString());
        assertThat(limited.get("nodeTypes").toString()).isEqualTo("[\"" + geocode + "\"]");
        SigningKey geocoder = new SigningKey(limited.get("id").asString(), limited.get("secret").asString());
        UUID run = api.start(workflow);

        StreamMessage<String, String> where = api.worker(geocode).takeOne(Duration.ofSeconds(10));
        api.redis().xadd(OutsiderRedis.completionsStreamOf(where), geocoder.signed(completion(where, "{}")));
        StreamMessage<String, String> charge = api.worker(billing).takeOne(Duration.ofSeconds(10));
        api.redis().xadd(OutsiderRedis.completionsStreamOf(charge), geocoder.signed(completion(charge, "{}")));
        await().atMost(Duration.ofSeconds(20)).until(() -> refusals(run).size() == 1);
        assertThat(refusals(run).get(0).get("reason").asString()).isEqualTo("Expected key " + geocoder.id()
                + " to report on nodes of type " + geocode + " only, but node 'charge' is of type '" + billing + "'");
        assertThat(api.read(get("/api/v1/runs/" + run)).get("status").asString()).isEqualTo("RUNNING");

        api.redis().xadd(OutsiderRedis.completionsStreamOf(charge), created("biller").signed(completion(charge,
                "{\"charged\":true}")));
        api.awaitStatus(run, "COMPLETED");

        admin(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\": \"x\", \"nodeTypes\": [\"Not A Type\"]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/nodeTypes/0"));
        admin(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\": \"x\", \"nodeTypes\": []}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/nodeTypes"));
        admin(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\": \"x\", \"node_types\": [\"" + geocode + "\"]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/node_types"));
    }

    @Test
    void theKeysApiIsForAdminsAndNamesWhatIsWrong() throws Exception {
        admin(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"\"}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/name"));
        admin(delete("/api/v1/worker-keys/wk_nothing")).andExpect(status().isNotFound());
        api.call(get("/api/v1/worker-keys")).andExpect(status().isForbidden());
        api.call(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"x\"}"))
                .andExpect(status().isForbidden());

        JsonNode rotated = JSON.readTree(admin(post("/api/v1/worker-keys/built-in/rotate")).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString());
        assertThat(rotated.get("builtIn").asBoolean()).isTrue();
        assertThat(rotated.get("revokedAt").isNull()).isTrue();
    }

    @Test
    void aKeyOfAnotherTenantCannotCompleteThisTenantsTokens() throws Exception {
        String tenant = "keys-" + UUID.randomUUID().toString().substring(0, 8);
        admin(post("/api/v1/tenants").contentType(MediaType.APPLICATION_JSON)
                .content("{\"id\": \"" + tenant + "\", \"name\": \"Key tenant\"}")).andExpect(status().isCreated());
        String person = "keeper-" + tenant;
        admin(post("/api/v1/users").contentType(MediaType.APPLICATION_JSON).content("{\"username\": \"" + person
                + "\", \"roles\": [\"admin\"], \"tenants\": [\"" + tenant + "\"], \"password\": "
                + "\"a-long-password-1\"}")).andExpect(status().isCreated());
        String token = tokens.issueIn(person, tenant, "keys", Set.of(Scope.ADMIN), null).secret();
        JsonNode theirs = JSON.readTree(mvc.perform(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"their workers\"}").header("Authorization", "Bearer " + token))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString());
        assertThat(theirs.get("tenant").asString()).isEqualTo(tenant);
        SigningKey foreign = new SigningKey(theirs.get("id").asString(), theirs.get("secret").asString());
        String step = api.customType("step");
        UUID run = api.start(api.created("""
                {"name": "tenant-keys-%s", "nodes": [{"id": "work", "type": "%s"}], "edges": []}"""
                .formatted(step, step)));

        StreamMessage<String, String> work = api.worker(step).takeOne(Duration.ofSeconds(10));
        api.redis().xadd(OutsiderRedis.completionsStreamOf(work), foreign.signed(completion(work, "{}")));
        await().atMost(Duration.ofSeconds(20)).until(() -> refusals(run).size() == 1);
        assertThat(refusals(run).get(0).get("reason").asString()).isEqualTo("Expected key " + foreign.id()
                + " to report on runs of tenant '" + tenant + "' only, but run " + run + " is another tenant's");
        assertThat(api.read(get("/api/v1/runs/" + run)).get("status").asString()).isEqualTo("RUNNING");

        api.redis().xadd(OutsiderRedis.completionsStreamOf(work), created("ours").signed(completion(work, "{}")));
        api.awaitStatus(run, "COMPLETED");
    }

    @Test
    void aWorkerCannotHandARunContentStoredForAnotherTenant() throws Exception {
        String tenant = "content-" + UUID.randomUUID().toString().substring(0, 8);
        admin(post("/api/v1/tenants").contentType(MediaType.APPLICATION_JSON)
                .content("{\"id\": \"" + tenant + "\", \"name\": \"Content tenant\"}")).andExpect(status().isCreated());
        // content a run of the other tenant stored (its hash is all a worker would need to name it)
        String theirs = cas.put(tenant, ("{\"secret\": \"" + tenant + "\"}").getBytes(StandardCharsets.UTF_8),
                "application/json");
        String step = api.customType("content");
        UUID run = api.start(api.created("""
                {"name": "content-%s", "nodes": [{"id": "work", "type": "%s"}], "edges": []}"""
                .formatted(step, step)));
        StreamMessage<String, String> work = api.worker(step).takeOne(Duration.ofSeconds(10));
        SigningKey key = created("content");
        Map<String, String> handed = new LinkedHashMap<>(completion(work, "{}"));
        handed.remove("output");
        handed.put("output_ref", theirs);

        api.redis().xadd(OutsiderRedis.completionsStreamOf(work), key.signed(handed));
        await().atMost(Duration.ofSeconds(20)).until(() -> refusals(run).size() == 1);
        assertThat(refusals(run).get(0).get("reason").asString()).isEqualTo("Expected output_ref to name content "
                + "stored for tenant 'default' (its run's), but " + theirs + " is none of its");
        assertThat(api.read(get("/api/v1/runs/" + run)).get("status").asString()).isEqualTo("RUNNING");

        api.redis().xadd(OutsiderRedis.completionsStreamOf(work), key.signed(completion(work, "{\"mine\": 1}")));
        api.awaitStatus(run, "COMPLETED");
        assertThat(api.read(get("/api/v1/runs/" + run)).at("/outputs/work/mine").asInt()).isEqualTo(1);
    }

    private SigningKey created(String name) throws Exception {
        JsonNode created = JSON.readTree(admin(post("/api/v1/worker-keys").contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\": \"" + name + "\"}")).andExpect(status().isCreated()).andReturn().getResponse()
                .getContentAsString());
        return new SigningKey(created.get("id").asString(), created.get("secret").asString());
    }

    private org.springframework.test.web.servlet.ResultActions admin(MockHttpServletRequestBuilder request)
            throws Exception {
        return mvc.perform(request.with(user("ada").roles("ADMIN")).with(csrf()));
    }

    private JsonNode refusals(UUID run) throws Exception {
        return api.read(get("/api/v1/signals/rejected?run=" + run));
    }

    /** What a refusal's reason says, in short. */
    private static String kind(String reason) {
        for (String kind : new String[] {"unsigned", "replayed", "does not match"}) {
            if (reason.contains(kind)) {
                return kind;
            }
        }
        return reason.contains("'wk_0000000000000000' is unknown") ? "unknown key" : reason;
    }

    private static Map<String, String> completion(StreamMessage<String, String> token, String output) {
        Map<String, String> body = token.getBody();
        return Map.of("token", body.get("token"), "run", body.get("run"), "node", body.get("node"), "status",
                "completed", "output", output, "worker", "outsider");
    }
}
