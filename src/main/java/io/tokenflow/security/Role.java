package io.tokenflow.security;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** A role a person holds, granting the authority {@code ROLE_<NAME>} and allowing a fixed set of token scopes. */
public enum Role {
    DESIGNER(Scope.WORKFLOWS_READ, Scope.WORKFLOWS_WRITE, Scope.RUNS_READ, Scope.RUNS_WRITE, Scope.TOKENS_MANAGE),
    OPERATOR(Scope.RUNS_READ, Scope.RUNS_WRITE, Scope.RUNS_PATCH, Scope.WORKFLOWS_READ, Scope.APPROVALS_READ,
            Scope.SIGNALS_SEND, Scope.TOKENS_MANAGE),
    APPROVER(Scope.APPROVALS_READ, Scope.APPROVALS_DECIDE, Scope.RUNS_READ, Scope.WORKFLOWS_READ,
            Scope.TOKENS_MANAGE),
    ADMIN(Scope.values());

    static final String AUTHORITY_PREFIX = "ROLE_";

    private final Set<Scope> allowedScopes;

    Role(Scope... allowedScopes) {
        this.allowedScopes = Collections.unmodifiableSet(EnumSet.copyOf(List.of(allowedScopes)));
    }

    /** The role as stored and configured, e.g. {@code designer}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The granted authority, e.g. {@code ROLE_DESIGNER}. */
    public String authority() {
        return AUTHORITY_PREFIX + name();
    }

    public Set<Scope> allowedScopes() {
        return allowedScopes;
    }

    public boolean allows(Scope scope) {
        return allowedScopes.contains(scope);
    }

    /** The scopes a person holding all of {@code roles} may use, or put on a token. */
    public static Set<Scope> scopesAllowedFor(Collection<Role> roles) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        roles.forEach(role -> scopes.addAll(role.allowedScopes));
        return scopes;
    }

    static Optional<Role> fromId(String id) {
        return Arrays.stream(values()).filter(role -> role.id().equalsIgnoreCase(id)).findFirst();
    }

    static Optional<Role> fromAuthority(String authority) {
        return Arrays.stream(values()).filter(role -> role.authority().equals(authority)).findFirst();
    }
}
