package io.tokenflow.openapi;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import org.springframework.http.HttpMethod;

import io.tokenflow.security.ApiAuthorizationRules;

/** One operation of the document with the path and method it is mapped to, which an {@code Operation} lacks. */
record DocumentedOperation(String path, HttpMethod method, Operation operation) {

    private static final String WEBHOOKS = "/hooks/";

    static List<DocumentedOperation> all(OpenAPI document) {
        List<DocumentedOperation> all = new ArrayList<>();
        if (document.getPaths() != null) {
            document.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                    all.add(new DocumentedOperation(path, HttpMethod.valueOf(method.name()), operation))));
        }
        return all;
    }

    /** A webhook: open to anyone by the filter chain, the trigger's secret or signature checked by the handler. */
    boolean webhook() {
        return path.startsWith(WEBHOOKS);
    }

    /** What the API's filter chain asks of a caller here (a webhook's chain asks nothing: see {@link #webhook}). */
    ApiAuthorizationRules.Access access() {
        return ApiAuthorizationRules.accessFor(method, path);
    }

    boolean hasPathVariables() {
        return operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(parameter -> "path".equals(parameter.getIn()));
    }

    boolean hasInput() {
        return operation.getRequestBody() != null
                || operation.getParameters() != null && !operation.getParameters().isEmpty();
    }
}
