package io.tokenflow.security;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.RequestJson;

/**
 * The caller's own API tokens in the tenant the request acts in: issue (the secret is shown once; the token acts in
 * that tenant), list (never the secret), revoke.
 */
@RestController
@RequestMapping("/api/v1/tokens")
class ApiTokensApi {

    private final ApiTokenService tokens;
    private final AuditLog audit;

    ApiTokensApi(ApiTokenService tokens, AuditLog audit) {
        this.tokens = tokens;
        this.audit = audit;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<CreatedToken> create(@RequestBody String body, Caller caller, HttpServletRequest http) {
        TokenRequest request = RequestJson.bind(body, TokenRequest.MEMBERS, TokenRequest.class);
        Duration lifetime = request.lifetime();
        // an expiresAt in the past is refused on issue as a lifetime of zero or less
        IssuedToken issued = request.expiresAt() != null
                ? tokens.issueUntil(caller.username(), caller.tenant(), request.name(), request.scopesFor(caller),
                        request.expiresAt())
                : tokens.issueIn(caller.username(), caller.tenant(), request.name(), request.scopesFor(caller),
                        lifetime);
        audit.record(caller.username(), "token.issued", issued.id().toString(), Map.of("name", issued.name(),
                "scopes", issued.scopes().stream().map(Scope::value).sorted().toList()), http.getRemoteAddr());
        return ResponseEntity.status(HttpStatus.CREATED).cacheControl(CacheControl.noStore())
                .body(CreatedToken.of(issued));
    }

    @GetMapping
    List<ApiTokenSummary> list(Caller caller) {
        return tokens.list(caller.username(), caller.tenant());
    }

    @DeleteMapping("/{id}")
    ResponseEntity<Void> revoke(@PathVariable UUID id, Caller caller, HttpServletRequest http) {
        tokens.revoke(caller.username(), caller.tenant(), id);
        audit.record(caller.username(), "token.revoked", id.toString(), Map.of(), http.getRemoteAddr());
        return ResponseEntity.noContent().build();
    }
}
