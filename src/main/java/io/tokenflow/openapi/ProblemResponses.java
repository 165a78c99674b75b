package io.tokenflow.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;

import io.tokenflow.web.Problems;

/**
 * Lists on each operation the RFC 7807 errors it can answer, as {@code application/problem+json}: what every
 * request can get (401 for missing or bad credentials, 503 while PostgreSQL or Redis is away), 403 where a scope,
 * a sign-in or a CSRF token is asked for, 400 where there is input, 404 where the path names something, 409 for
 * writes (the error handling answers any violated constraint with it), 415 and 422 where there is a body. Statuses a
 * controller declares itself ({@code @ApiResponse(responseCode = "429")}) get the same problem body.
 */
final class ProblemResponses implements OpenApiCustomizer {

    static final String PROBLEM = "Problem";
    private static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    /** What each status means here: its problem type, and a detail as the problems say it. */
    private record Meaning(String type, String detail) {

        /** A problem of Tokenflow's own vocabulary. */
        static Meaning ours(String slug, String detail) {
            return new Meaning(Problems.TYPE_BASE + slug, detail);
        }
    }

    private static final Map<Integer, Meaning> MEANINGS = Map.of(
            400, Meaning.ours("bad-request", "Expected well-formed parameters and body, but one is malformed or "
                    + "invalid (the problem names it)"),
            401, Meaning.ours("unauthenticated", "Expected a bearer token or a signed-in session, but the request "
                    + "carried neither, or a token that is unknown, revoked or expired"),
            403, Meaning.ours("forbidden", "Expected the scope this operation names (or a role allowing it), but the "
                    + "caller lacks it; or a write in a session without its X-CSRF-TOKEN header"),
            404, Meaning.ours("not-found", "Expected the resource the path names, but there is none (or it is "
                    + "another tenant's)"),
            409, Meaning.ours("conflict", "Expected the change to fit the current state, but it conflicts with it (a "
                    + "stale version, a name taken, a state that does not allow it)"),
            // answered by Spring MVC itself, as a problem of no particular type
            415, new Meaning("about:blank", "Expected the body as the content type this operation "
                    + "consumes, but it came as another"),
            422, Meaning.ours("bad-request", "Expected a body that can be stored and used, but it cannot (the "
                    + "problem names the JSON pointer)"),
            429, Meaning.ours("quota-exceeded", "Expected the tenant to be within its quota, but it is used up "
                    + "(Retry-After says when to retry)"),
            503, Meaning.ours("unavailable", "Expected PostgreSQL and Redis to be reachable, but one is not "
                    + "(Retry-After says when to retry)"));
    private static final Meaning REFUSED = Meaning.ours("refused", "Expected a request this operation accepts, but "
            + "it was refused");

    private static final String WEBHOOK_UNAUTHENTICATED = "Expected the trigger's secret or a valid signature of "
            + "the body, but it is missing or wrong";

    /**
     * Added here rather than with the document's frame: springdoc drops the schemas nothing refers to before it
     * calls customizers.
     */
    @Override
    public void customise(OpenAPI document) {
        document.getComponents().addSchemas(PROBLEM, problemSchema());
        for (DocumentedOperation documented : DocumentedOperation.all(document)) {
            ApiResponses responses = documented.operation().getResponses();
            if (responses == null) {
                responses = new ApiResponses();
                documented.operation().setResponses(responses);
            }
            for (int status : statuses(documented)) {
                responses.computeIfAbsent(String.valueOf(status), code -> new ApiResponse());
            }
            for (Map.Entry<String, ApiResponse> response : responses.entrySet()) {
                int status = Integer.parseInt(response.getKey());
                if (status >= 400) {
                    problem(documented, status, response.getValue());
                }
            }
        }
    }

    private static SortedSet<Integer> statuses(DocumentedOperation documented) {
        SortedSet<Integer> statuses = new TreeSet<>(List.of(401, 503));
        boolean write = documented.method() != HttpMethod.GET;
        if (!documented.webhook() && (write || !documented.access().open())) {
            statuses.add(403);
        }
        if (documented.hasInput()) {
            statuses.add(400);
        }
        if (documented.hasPathVariables()) {
            statuses.add(404);
        }
        if (write) {
            statuses.add(409);
        }
        if (documented.operation().getRequestBody() != null) {
            statuses.addAll(List.of(415, 422));
        }
        return statuses;
    }

    private static void problem(DocumentedOperation documented, int status, ApiResponse response) {
        Meaning meaning = status == 401 && documented.webhook() ? Meaning.ours("unauthorized", WEBHOOK_UNAUTHENTICATED)
                : MEANINGS.getOrDefault(status, REFUSED);
        if (response.getDescription() == null || response.getDescription().isBlank()) {
            response.setDescription(meaning.detail());
        }
        if (response.getContent() != null && response.getContent().containsKey(PROBLEM_JSON)) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        Map<String, Object> example = new LinkedHashMap<>();
        example.put("type", meaning.type());
        example.put("title", known == null ? "Refused" : known.getReasonPhrase());
        example.put("status", status);
        example.put("detail", meaning.detail());
        example.put("instance", documented.path());
        response.setContent(new Content().addMediaType(PROBLEM_JSON, new MediaType()
                .schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))
                .addExamples(String.valueOf(status), new Example().value(example))));
    }

    /** RFC 7807's members; problems may carry more (a JSON pointer, diagnostics, the store that is away). */
    private static Schema<Object> problemSchema() {
        return new Schema<>().types(Set.of("object")).description("An RFC 7807 problem")
                .addProperty("type", text("uri", "What kind of problem: https://tokenflow.io/problems/<slug>"))
                .addProperty("title", text(null, "The kind's short summary"))
                .addProperty("status", new Schema<>().types(Set.of("integer")).description("The HTTP status"))
                .addProperty("detail", text(null, "What went wrong here: \"Expected X, but Y\""))
                .addProperty("instance", text("uri-reference", "The request's path"))
                .additionalProperties(true);
    }

    private static Schema<Object> text(String format, String description) {
        return new Schema<>().types(Set.of("string")).format(format).description(description);
    }
}
