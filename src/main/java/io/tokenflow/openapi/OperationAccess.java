package io.tokenflow.openapi;

import java.util.Arrays;
import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import org.springdoc.core.customizers.OpenApiCustomizer;

import io.tokenflow.security.ApiAuthorizationRules;
import io.tokenflow.security.Role;
import io.tokenflow.security.Scope;

/**
 * Says on each operation who may call it, read from {@link ApiAuthorizationRules} (the rules the filter chain
 * enforces), so that the document cannot drift from them: the {@code x-required-scope} extension, a sentence in the
 * description, and security requirements (OpenAPI 3.1 lets an HTTP or API-key requirement list roles: the scope for
 * a token, the roles allowing it for a person).
 */
final class OperationAccess implements OpenApiCustomizer {

    static final String SCOPE_EXTENSION = "x-required-scope";
    static final String NO_SCOPE = "none";

    @Override
    public void customise(OpenAPI document) {
        for (DocumentedOperation documented : DocumentedOperation.all(document)) {
            Operation operation = documented.operation();
            if (documented.webhook()) {
                describe(operation, NO_SCOPE, "Authenticated by the trigger's secret (`X-Tokenflow-Secret`) or the "
                        + "HMAC signature of the body (`X-Tokenflow-Signature`), as the trigger's `auth` says; no "
                        + "account and no scope.", List.of(requirement(OpenApiConfiguration.TRIGGER_SECRET),
                        requirement(OpenApiConfiguration.TRIGGER_SIGNATURE)));
                continue;
            }
            ApiAuthorizationRules.Access access = documented.access();
            if (access.open()) {
                describe(operation, NO_SCOPE, "Open to anyone: no credentials needed (a token that is sent is "
                        + "still checked: an unknown, revoked or expired one is refused with 401).", List.of());
            } else if (access.scope().isEmpty()) {
                describe(operation, NO_SCOPE, "Requires a signed-in caller (a token, a session or HTTP Basic); no "
                        + "scope.", List.of(requirement(OpenApiConfiguration.BEARER),
                        requirement(OpenApiConfiguration.SESSION), requirement(OpenApiConfiguration.BASIC)));
            } else {
                Scope scope = access.scope().get();
                List<String> roles = Arrays.stream(Role.values()).filter(role -> role.allows(scope)).map(Role::id)
                        .toList();
                describe(operation, scope.value(), "Requires the scope `" + scope.value() + "`: a bearer token "
                        + "holding it, or a person whose role allows it (" + String.join(", ", roles) + ").",
                        List.of(requirement(OpenApiConfiguration.BEARER, List.of(scope.value())),
                                requirement(OpenApiConfiguration.SESSION, roles),
                                requirement(OpenApiConfiguration.BASIC, roles)));
            }
        }
    }

    private static void describe(Operation operation, String scope, String sentence,
                                 List<SecurityRequirement> requirements) {
        operation.addExtension(SCOPE_EXTENSION, scope);
        String description = operation.getDescription();
        operation.setDescription(description == null || description.isBlank() ? sentence
                : description + "\n\n" + sentence);
        operation.setSecurity(requirements);
    }

    private static SecurityRequirement requirement(String scheme) {
        return requirement(scheme, List.of());
    }

    private static SecurityRequirement requirement(String scheme, List<String> roles) {
        return new SecurityRequirement().addList(scheme, roles);
    }
}
