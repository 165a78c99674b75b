package io.tokenflow.openapi;

import java.util.Map;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
/**
 * The document's frame: what the API is, how a caller authenticates (bearer token, the browser's session, HTTP Basic,
 * a webhook trigger's secret or signature). The operations come from the controllers; {@link OperationAccess} and
 * {@link ProblemResponses} complete each of them.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static final String BEARER = "bearerToken";
    static final String SESSION = "session";
    static final String BASIC = "basic";
    static final String TRIGGER_SECRET = "triggerSecret";
    static final String TRIGGER_SIGNATURE = "triggerSignature";

    private static final String DESCRIPTION = """
            Tokenflow's JSON API: workflows, runs, signals, approvals, dead letters, tokens and people under \
            `/api/v1`, and webhook triggers under `/hooks`. Scripts authenticate with a scoped API token \
            (`Authorization: Bearer tf_…`, issued at `POST /api/v1/tokens`); a signed-in browser uses its session \
            (writes then need the `X-CSRF-TOKEN` header); people may use HTTP Basic. Each operation names the scope \
            it needs (`x-required-scope`). Every error is an RFC 7807 `application/problem+json` body.""";

    @Bean
    OpenAPI tokenflowOpenApi(Environment environment) {
        String version = OpenApiConfiguration.class.getPackage().getImplementationVersion();
        return new OpenAPI().info(new Info().title("Tokenflow API").version(version == null ? "development" : version)
                        .description(DESCRIPTION))
                .components(new Components().securitySchemes(securitySchemes(environment)));
    }

    @Bean
    OperationAccess operationAccess() {
        return new OperationAccess();
    }

    @Bean
    ProblemResponses problemResponses() {
        return new ProblemResponses();
    }

    private static Map<String, SecurityScheme> securitySchemes(Environment environment) {
        String cookie = environment.getProperty("server.servlet.session.cookie.name", "JSESSIONID");
        return Map.of(
                BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("tf_…")
                        .description("An API token; the operation's scope must be one of the token's scopes"),
                SESSION, new SecurityScheme().type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.COOKIE)
                        .name(cookie).description("The session of a person signed in at /login; one of the "
                                + "listed roles must be theirs. Writes need the X-CSRF-TOKEN header as well"),
                BASIC, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic")
                        .description("A person's username and password; one of the listed roles must be theirs"),
                TRIGGER_SECRET, new SecurityScheme().type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.HEADER)
                        .name("X-Tokenflow-Secret").description("The secret of a trigger with auth: secret"),
                TRIGGER_SIGNATURE, new SecurityScheme().type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.HEADER)
                        .name("X-Tokenflow-Signature")
                        .description("sha256=<hex HMAC-SHA256 of the raw body> for a trigger with auth: hmac"));
    }
}
