package io.tokenflow.security;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

import io.tokenflow.tenancy.CurrentTenant;

/**
 * Who makes the current request: a signed-in person (with roles, and the scopes those roles allow) or an API token
 * (with its scopes only, no roles). Declare a {@code Caller} parameter on a controller method of an endpoint that
 * requires sign-in, or build one with {@link #of(Authentication)}.
 *
 * @param username the person, or the token's owner
 * @param token    the id of the API token used, empty for a person
 * @param tenant   the tenant the request acts in: the token's, or the one the person chose for the session
 */
public record Caller(String username, Set<Role> roles, Set<Scope> scopes, Optional<UUID> token, String tenant) {

    public Caller {
        roles = Set.copyOf(roles);
        scopes = Set.copyOf(scopes);
    }

    /** A caller acting in the default tenant. */
    public Caller(String username, Set<Role> roles, Set<Scope> scopes, Optional<UUID> token) {
        this(username, roles, scopes, token, CurrentTenant.DEFAULT);
    }

    /** The caller of a request whose tenant the filter chain chose ({@link CurrentTenant}). */
    public static Caller of(Authentication authentication) {
        String tenant = CurrentTenant.forNewRows();
        if (authentication instanceof ApiTokenAuthentication token) {
            return new Caller(token.getName(), Set.of(), token.scopes(), Optional.of(token.tokenId()), token.tenant());
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority)
                .forEach(authority -> Role.fromAuthority(authority).ifPresent(roles::add));
        return new Caller(authentication.getName(), roles, Role.scopesAllowedFor(roles), Optional.empty(), tenant);
    }

    /** Whether the caller may do what {@code scope} describes, as a person through a role or as a token. */
    public boolean can(Scope scope) {
        return scopes.contains(scope);
    }

    public boolean hasRole(Role role) {
        return roles.contains(role);
    }

    public boolean isToken() {
        return token.isPresent();
    }
}
