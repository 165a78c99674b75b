package io.tokenflow.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.tokenflow.IntegrationTest;
import io.tokenflow.support.ApiEndpoints;

/**
 * The OpenAPI document as a caller gets it: only for a signed-in caller, valid OpenAPI 3.1 by the reference parser,
 * listing exactly the {@code /api} and {@code /hooks} mappings the application has (read from the request mappings,
 * so an endpoint cannot be left out), each with its scope and its problem+json errors.
 */
@IntegrationTest
@AutoConfigureMockMvc
class OpenApiIntegrationTests {

    private static final String PROBLEM_JSON = "application/problem+json";

    @Autowired MockMvc mvc;
    @Autowired @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings;

    @Test
    void theDocumentAndSwaggerUiAreRefusedToAnonymousCallers() throws Exception {
        MvcResult document = mvc.perform(get("/v3/api-docs")).andReturn();
        assertThat(document.getResponse().getStatus()).isEqualTo(401);
        assertThat(document.getResponse().getContentType()).isEqualTo(PROBLEM_JSON);
        assertThat(mvc.perform(get("/v3/api-docs.yaml")).andReturn().getResponse().getStatus()).isEqualTo(401);
        assertThat(mvc.perform(get("/v3/api-docs/swagger-config")).andReturn().getResponse().getStatus())
                .isEqualTo(401);
        for (String page : List.of("/swagger-ui.html", "/swagger-ui/index.html")) {
            MvcResult ui = mvc.perform(get(page)).andReturn();
            assertThat(ui.getResponse().getStatus()).as(page).isEqualTo(302);
            assertThat(ui.getResponse().getHeader(HttpHeaders.LOCATION)).as(page).endsWith("/login");
        }
    }

    @Test
    void theDocumentIsValidOpenApiAndListsEveryControllerMappingWithItsScopeAndProblems() throws Exception {
        String json = mvc.perform(get("/v3/api-docs").with(user("reader").roles("APPROVER"))).andReturn()
                .getResponse().getContentAsString();
        assertThat(mvc.perform(get("/v3/api-docs.yaml").with(user("reader").roles("APPROVER"))).andReturn()
                .getResponse().getContentAsString()).startsWith("openapi: 3.1");
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "openapi.json"), json);
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(json, null, options);
        assertThat(parsed.getMessages()).as("the parser's complaints").isEmpty();
        OpenAPI document = parsed.getOpenAPI();
        assertThat(document.getOpenapi()).startsWith("3.1");
        assertThat(document.getComponents().getSecuritySchemes()).containsKeys(OpenApiConfiguration.BEARER,
                OpenApiConfiguration.SESSION);

        Set<String> mapped = ApiEndpoints.mapped(mappings, "/api/", "/hooks/");
        Set<String> documented = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        document.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            String endpoint = method + " " + path;
            documented.add(endpoint);
            check(endpoint, operation, wrong);
        }));
        assertThat(documented).as("operations in the document").containsExactlyInAnyOrderElementsOf(mapped);
        assertThat(wrong).isEmpty();
        System.out.printf("OpenAPI: %d operations, every controller mapping listed%n", documented.size());
    }

    /** A few operations' scopes as the authorization matrix has them: the document reads the same rules. */
    private static final Map<String, String> KNOWN_SCOPES = Map.of("POST /api/v1/runs", "runs:write",
            "GET /api/v1/runs/{id}", "runs:read", "POST /api/v1/signals/{name}", "signals:send",
            "PATCH /api/v1/workflows/{workflow}", "workflows:write", "DELETE /api/v1/tokens/{id}", "tokens:manage",
            "POST /api/v1/runs/{id}/recover", "admin", "GET /api/v1/schema/workflow", OperationAccess.NO_SCOPE,
            "POST /hooks/{workflow}/{trigger}", OperationAccess.NO_SCOPE);

    /** The bodies that carry examples, by endpoint, and the media type they are sent as. */
    private static final Map<String, String> EXAMPLES = Map.of("POST /api/v1/runs", "application/json",
            "PATCH /api/v1/workflows/{workflow}", "application/json-patch+json",
            "POST /api/v1/signals/{name}", "application/json");

    private static void check(String endpoint, Operation operation, List<String> wrong) {
        Object scope = operation.getExtensions() == null ? null
                : operation.getExtensions().get(OperationAccess.SCOPE_EXTENSION);
        if (scope == null) {
            wrong.add("Expected " + endpoint + " to name its scope, but it has no " + OperationAccess.SCOPE_EXTENSION);
        } else if (KNOWN_SCOPES.containsKey(endpoint) && !KNOWN_SCOPES.get(endpoint).equals(scope)) {
            wrong.add("Expected " + endpoint + " to need " + KNOWN_SCOPES.get(endpoint) + ", but it names " + scope);
        }
        boolean scoped = scope != null && !OperationAccess.NO_SCOPE.equals(scope);
        if (scoped && operation.getSecurity().stream().noneMatch(requirement -> List.of(scope)
                .equals(requirement.get(OpenApiConfiguration.BEARER)))) {
            wrong.add("Expected " + endpoint + " to ask a bearer token for " + scope + ", but its security is "
                    + operation.getSecurity());
        }
        for (String status : scoped ? List.of("401", "403") : List.of("401")) {
            if (operation.getResponses().get(status) == null) {
                wrong.add("Expected " + endpoint + " to list " + status + ", but it does not");
            }
        }
        operation.getResponses().forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                checkProblem(endpoint + " " + status, response, wrong);
            }
        });
        if (EXAMPLES.containsKey(endpoint)) {
            MediaType body = operation.getRequestBody().getContent().get(EXAMPLES.get(endpoint));
            if (body == null || body.getExamples() == null || body.getExamples().isEmpty()) {
                wrong.add("Expected " + endpoint + " to show an example " + EXAMPLES.get(endpoint) + " body, but "
                        + "it shows " + operation.getRequestBody().getContent());
            }
        }
    }

    private static void checkProblem(String answer, ApiResponse response, List<String> wrong) {
        MediaType problem = response.getContent() == null ? null : response.getContent().get(PROBLEM_JSON);
        if (problem == null || problem.getSchema() == null
                || !("#/components/schemas/" + ProblemResponses.PROBLEM).equals(problem.getSchema().get$ref())) {
            wrong.add("Expected " + answer + " to be a " + PROBLEM_JSON + " Problem, but it is "
                    + response.getContent());
        }
    }
}
