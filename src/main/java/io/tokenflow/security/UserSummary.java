package io.tokenflow.security;

import java.time.Instant;
import java.util.List;

/**
 * A person as administrators see them (never the password).
 *
 * @param source {@code configuration} (from {@code tokenflow.security.users}: changed there, not here),
 *               {@code generated} (the first admin) or {@code admin} (created by an administrator)
 */
public record UserSummary(String username, String displayName, List<String> roles, List<String> tenants,
                          boolean enabled, String source, Instant createdAt, Instant updatedAt) {

    static UserSummary of(UserAccount account) {
        return new UserSummary(account.username(), account.displayName().orElse(null),
                account.roles().stream().map(Role::id).toList(), account.tenants(), account.isEnabled(),
                account.source().name().toLowerCase(java.util.Locale.ROOT), account.createdAt(), account.updatedAt());
    }
}
