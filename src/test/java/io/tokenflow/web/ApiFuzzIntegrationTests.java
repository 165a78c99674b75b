package io.tokenflow.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.UriUtils;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;

/**
 * Generated requests to every endpoint under {@code /api} and {@code /hooks} (read from the application's request
 * mappings, so a new endpoint is fuzzed without a change here), as an admin holding every role: path variables,
 * query parameters, headers and bodies drawn from values that broke such APIs before (numbers beyond int and long,
 * 1e308, NUL characters, thousands of segments, nesting hundreds deep, malformed JSON, valid documents with one
 * member replaced). Asserts that none answers 5xx, that a refused request (4xx) changes none of the tables the API
 * writes and names no Java internals (packages, types, exceptions), and that the application is healthy at the end.
 * Prints the statuses seen.
 *
 * <p>Bounded here ({@code fuzz.inputs}, 1,000 by default, about a minute); the long form is
 * {@code ./mvnw test -Dtest=ApiFuzzIntegrationTests -Dfuzz.inputs=10000} ({@code -Dfuzz.seed=…} repeats a run). The
 * generator is written here rather than with jqwik: jqwik's engine cannot run inside a Spring test context (its
 * Spring integration is not in the repository this build uses), and a seeded {@link Random} repeats a run as well.
 */
@IntegrationTest
@AutoConfigureMockMvc
class ApiFuzzIntegrationTests {

    private static final long SEED = Long.getLong("fuzz.seed", 20_261_127L);
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 1_000);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The tables the API writes; a refused request must leave their row counts as they were. */
    private static final String STATE = "select (select count(*) from workflows) || '/' || (select count(*) from "
            + "workflow_versions) || '/' || (select count(*) from workflow_tags) || '/' || (select count(*) from "
            + "api_tokens) || '/' || (select count(*) from node_types) || '/' || (select count(*) from agents) || '/' "
            + "|| (select count(*) from trigger_secrets) || '/' || (select count(*) from run_ir_revisions) || '/' "
            + "|| (select count(*) from tenants)";

    /** What a refusal must not show its caller: Java's packages, types and exception names. */
    private static final Pattern JAVA_NAMES = Pattern.compile("java\\.|jakarta\\.|tools\\.jackson|org\\.springframework"
            + "|io\\.tokenflow|Exception\\b|\\bInteger\\b|\\bint\\b|\\bLong\\b|StreamReadConstraints");

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings;

    private final Random random = new Random(SEED);
    private String workflow;
    private String run;
    private List<String> words;

    /** One mapped endpoint: its method, path pattern, what its body is, and its query parameters and headers. */
    private record Endpoint(HttpMethod method, String pattern, MediaType consumes, List<String> params,
                            List<String> headers) {
    }

    @Test
    void noEndpointAnswers5xxToGeneratedInputAndRefusalsChangeNothing() throws Exception {
        workflow = TestWorkflows.unique("fuzz");
        mvc.perform(as(MockMvcRequestBuilders.post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                .content(TestWorkflows.fixture("valid/fan-out-fan-in", workflow)))).andReturn();
        MvcResult started = mvc.perform(as(MockMvcRequestBuilders.post("/api/v1/runs")
                .contentType(MediaType.APPLICATION_JSON).content("{\"workflow\": \"" + workflow + "\"}"))).andReturn();
        run = JSON.readTree(started.getResponse().getContentAsString()).path("id").asString();
        words = List.of(workflow, run, UUID.randomUUID().toString(), "1", "0", "-1", "2147483648",
                "9223372036854775808", "1e308", "not-a-uuid", "x".repeat(300), "\u0000", "sha256:" + "0".repeat(64),
                "☃", "..", "null", "main", "a/b", "%", "");
        List<Endpoint> endpoints = endpoints();
        assertThat(endpoints).hasSizeGreaterThan(30);

        Map<String, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < INPUTS; i++) {
            Endpoint endpoint = endpoints.get(random.nextInt(endpoints.size()));
            URI uri = uri(endpoint);
            MockHttpServletRequestBuilder request = MockMvcRequestBuilders.request(endpoint.method(), uri);
            String body = body(endpoint);
            if (body != null) {
                request.contentType(random.nextInt(10) == 0 ? MediaType.TEXT_PLAIN : endpoint.consumes())
                        .content(body.getBytes(StandardCharsets.UTF_8));
            }
            for (String header : endpoint.headers()) {
                request.header(header, "\"" + pick(words) + "\"");
            }
            String before = jdbc.sql(STATE).query(String.class).single();
            MvcResult result = mvc.perform(as(request)).andReturn();
            int status = result.getResponse().getStatus();
            statuses.merge(endpoint.method() + " " + status, 1, Integer::sum);
            String what = i + ": " + endpoint.method() + " " + uri + (body == null ? "" : " " + abbreviate(body));
            if (status >= 500) {
                failures.add(what + " → " + status + " " + abbreviate(result.getResponse().getContentAsString()));
            } else if (status >= 400 && !before.equals(jdbc.sql(STATE).query(String.class).single())) {
                failures.add(what + " → " + status + " yet changed the stored state");
            } else if (status >= 400 && JAVA_NAMES.matcher(result.getResponse().getContentAsString()).find()) {
                failures.add(what + " → " + status + " naming Java internals: "
                        + abbreviate(result.getResponse().getContentAsString()));
            }
        }
        System.out.printf("API fuzz: %,d inputs (seed %d) over %d endpoints; statuses %s; %d failures%n", INPUTS, SEED,
                endpoints.size(), statuses, failures.size());
        failures.forEach(failure -> System.out.println("  " + failure));

        assertThat(mvc.perform(get("/actuator/health")).andReturn().getResponse().getContentAsString())
                .contains("\"UP\"");
        assertThat(failures).isEmpty();
    }

    private List<Endpoint> endpoints() {
        List<Endpoint> endpoints = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> mapping : mappings.getHandlerMethods().entrySet()) {
            RequestMappingInfo info = mapping.getKey();
            Set<String> patterns = info.getPatternValues();
            Set<MediaType> consumes = info.getConsumesCondition().getConsumableMediaTypes();
            List<String> params = new ArrayList<>();
            List<String> headers = new ArrayList<>();
            for (MethodParameter parameter : mapping.getValue().getMethodParameters()) {
                RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
                if (param != null) {
                    params.add(!param.name().isEmpty() ? param.name() : !param.value().isEmpty() ? param.value()
                            : parameter.getParameterName());
                }
                RequestHeader header = parameter.getParameterAnnotation(RequestHeader.class);
                if (header != null) {
                    headers.add(!header.name().isEmpty() ? header.name() : header.value());
                }
            }
            Set<org.springframework.web.bind.annotation.RequestMethod> methods = info.getMethodsCondition().getMethods();
            for (String pattern : patterns) {
                if (!pattern.startsWith("/api/") && !pattern.startsWith("/hooks/")) {
                    continue;
                }
                for (var method : methods.isEmpty() ? Set.of(org.springframework.web.bind.annotation.RequestMethod.GET)
                        : methods) {
                    endpoints.add(new Endpoint(HttpMethod.valueOf(method.name()), pattern, consumes.isEmpty()
                            ? MediaType.APPLICATION_JSON : consumes.iterator().next(), params, headers));
                }
            }
        }
        endpoints.sort(Comparator.comparing(Endpoint::pattern).thenComparing(e -> e.method().name()));
        return endpoints;
    }

    private URI uri(Endpoint endpoint) {
        StringBuilder path = new StringBuilder();
        for (String segment : endpoint.pattern().substring(1).split("/")) {
            path.append('/');
            path.append(segment.startsWith("{") ? UriUtils.encodePathSegment(pick(words), StandardCharsets.UTF_8)
                    : segment);
        }
        StringBuilder query = new StringBuilder();
        for (String param : endpoint.params()) {
            if (random.nextBoolean()) {
                query.append(query.isEmpty() ? '?' : '&').append(param).append('=')
                        .append(UriUtils.encodeQueryParam(pick(words), StandardCharsets.UTF_8));
            }
        }
        return URI.create(path + query.toString());
    }

    /** A body: a valid one with one value replaced, a random JSON value, malformed text, or none. */
    private String body(Endpoint endpoint) {
        if (endpoint.method() == HttpMethod.GET || endpoint.method() == HttpMethod.DELETE) {
            return random.nextInt(20) == 0 ? "{}" : null;
        }
        return switch (random.nextInt(10)) {
            case 0, 1, 2, 3 -> mutated(template(endpoint)).toString();
            case 4, 5, 6 -> nasty(4).toString();
            case 7, 8 -> malformed(template(endpoint).toString());
            default -> null;
        };
    }

    private JsonNode template(Endpoint endpoint) {
        if (endpoint.consumes().getSubtype().contains("json-patch") || endpoint.pattern().endsWith("/patch")) {
            return JSON.readTree("[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"x\"}, "
                    + "{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"id\": \"z\", \"type\": \"function\", "
                    + "\"config\": {\"function\": \"echo\"}}}]");
        }
        if (endpoint.pattern().equals("/api/v1/workflows") || endpoint.pattern().endsWith("/compile")) {
            return JSON.readTree(TestWorkflows.fixture("valid/fan-out-fan-in", TestWorkflows.unique("fuzz")));
        }
        if (endpoint.pattern().equals("/api/v1/runs")) {
            return JSON.readTree("{\"workflow\": \"" + workflow + "\", \"version\": 1, \"inputs\": {}, "
                    + "\"idempotencyKey\": \"fuzz-" + random.nextInt(1000) + "\"}");
        }
        if (endpoint.pattern().equals("/api/v1/tokens")) {
            return JSON.readTree("{\"name\": \"fuzz\", \"scopes\": [\"runs:read\"], \"expiresInDays\": 3}");
        }
        return JSON.readTree("{\"decision\": \"approve\", \"comment\": \"ok\", \"key\": \"k\", \"payload\": {}, "
                + "\"reason\": \"r\", \"name\": \"n\", \"schema\": {}}");
    }

    /** The template with one value somewhere in it replaced, removed, or an unknown member added. */
    private JsonNode mutated(JsonNode template) {
        List<JsonNode> containers = new ArrayList<>();
        collect(template, containers);
        JsonNode target = containers.get(random.nextInt(containers.size()));
        if (target instanceof ObjectNode object && !object.isEmpty()) {
            List<String> names = new ArrayList<>(object.propertyNames());
            String name = names.get(random.nextInt(names.size()));
            switch (random.nextInt(4)) {
                case 0 -> object.remove(name);
                case 1 -> object.set("unknown-" + random.nextInt(10), nasty(2));
                default -> object.set(name, nasty(3));
            }
        } else if (target instanceof ArrayNode array && !array.isEmpty()) {
            array.set(random.nextInt(array.size()), nasty(3));
        }
        return template;
    }

    private static void collect(JsonNode node, List<JsonNode> containers) {
        if (node.isContainer()) {
            containers.add(node);
            node.values().forEach(child -> collect(child, containers));
        }
    }

    /** A value of the kinds that broke APIs before, or a random structure of them. */
    private JsonNode nasty(int depth) {
        return switch (random.nextInt(depth <= 0 ? 12 : 15)) {
            case 0 -> NODES.numberNode(1e308);
            case 1 -> NODES.numberNode(new java.math.BigInteger("9223372036854775808"));
            case 2 -> NODES.numberNode(2_147_483_648L);
            case 3 -> NODES.numberNode(-1);
            case 4 -> NODES.numberNode(0.5);
            case 5 -> NODES.stringNode("a\u0000b");
            case 6 -> NODES.stringNode("${workflow.input" + ".a".repeat(3000) + "}");
            case 7 -> NODES.stringNode("x".repeat(random.nextInt(5000)));
            case 8 -> NODES.nullNode();
            case 9 -> NODES.booleanNode(random.nextBoolean());
            case 10 -> NODES.stringNode(pick(words));
            case 11 -> deep(random.nextBoolean() ? 70 : 480);
            case 12 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(nasty(depth - 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set(pick(List.of("id", "type", "name", "nodes", "edges", "op", "path", "value", "from",
                            "to", "config", "input", "workflow", "version", "scopes", "maxLength")), nasty(depth - 1));
                }
                yield object;
            }
        };
    }

    private static JsonNode deep(int levels) {
        JsonNode node = NODES.numberNode(1);
        for (int i = 0; i < levels; i++) {
            node = NODES.arrayNode().add(node);
        }
        return node;
    }

    private String malformed(String valid) {
        return switch (random.nextInt(4)) {
            case 0 -> valid.substring(0, random.nextInt(Math.max(1, valid.length())));
            case 1 -> "[".repeat(2000);
            case 2 -> "{\"a\": 1, \"a\": 2}";
            default -> valid.replaceFirst(":", "::");
        };
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }

    private static MockHttpServletRequestBuilder as(MockHttpServletRequestBuilder request) {
        return request.with(user("fuzz").roles("ADMIN", "DESIGNER", "OPERATOR", "APPROVER")).with(csrf());
    }
}
