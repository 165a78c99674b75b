package io.tokenflow.security;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What an API token may do. A token grants the authority {@code SCOPE_<value>} for each of its scopes that its
 * owner's roles allow; a person signed in with a role may do what the role's scopes describe.
 */
public enum Scope {
    WORKFLOWS_READ("workflows:read"),
    WORKFLOWS_WRITE("workflows:write"),
    RUNS_READ("runs:read"),
    RUNS_WRITE("runs:write"),
    RUNS_PATCH("runs:patch"),
    APPROVALS_READ("approvals:read"),
    APPROVALS_DECIDE("approvals:decide"),
    SIGNALS_SEND("signals:send"),
    TOKENS_MANAGE("tokens:manage"),
    ADMIN("admin");

    static final String AUTHORITY_PREFIX = "SCOPE_";

    private final String value;

    Scope(String value) {
        this.value = value;
    }

    /** The scope as written in token requests and responses, e.g. {@code runs:read}. */
    public String value() {
        return value;
    }

    /** The granted authority, e.g. {@code SCOPE_runs:read}. */
    public String authority() {
        return AUTHORITY_PREFIX + value;
    }

    /** Every authority that allows this scope: its own {@code SCOPE_…} and the {@code ROLE_…} of each role allowing it. */
    public String[] grantingAuthorities() {
        Stream<String> roles = Arrays.stream(Role.values()).filter(role -> role.allows(this)).map(Role::authority);
        return Stream.concat(roles, Stream.of(authority())).toArray(String[]::new);
    }

    public static Optional<Scope> fromValue(String value) {
        return Arrays.stream(values()).filter(scope -> scope.value.equals(value)).findFirst();
    }

    static Optional<Scope> fromAuthority(String authority) {
        return authority.startsWith(AUTHORITY_PREFIX)
                ? fromValue(authority.substring(AUTHORITY_PREFIX.length()))
                : Optional.empty();
    }

    static String allValues() {
        return Arrays.stream(values()).map(Scope::value).toList().toString();
    }

    @Override
    public String toString() {
        return value;
    }
}
