package io.tokenflow.security;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.Tenants;

/**
 * Security configuration under {@code tokenflow.security}.
 *
 * @param users               people to create or update in the {@code users} table on every start
 * @param tokens              limits for API tokens
 * @param credentialCacheTtl  how long a verified API token or a person's account is kept in memory
 *                            ({@link CredentialCache}): requests within it cost no database round trip and still
 *                            authenticate while PostgreSQL is away; a token revoked on another instance still works
 *                            there for at most this long. Zero turns the cache off.
 */
@ConfigurationProperties("tokenflow.security")
public record SecuritySettings(List<ConfiguredUser> users, Tokens tokens, Duration credentialCacheTtl) {

    public static final Duration DEFAULT_CREDENTIAL_CACHE_TTL = Duration.ofSeconds(30);

    public SecuritySettings {
        users = users == null ? List.of() : List.copyOf(users);
        tokens = tokens == null ? new Tokens(null, null) : tokens;
        credentialCacheTtl = credentialCacheTtl == null ? DEFAULT_CREDENTIAL_CACHE_TTL : credentialCacheTtl;
        if (credentialCacheTtl.isNegative()) {
            throw new IllegalArgumentException("Expected tokenflow.security.credential-cache-ttl of zero or more, "
                    + "but got " + credentialCacheTtl);
        }
        Set<String> seen = new HashSet<>();
        for (ConfiguredUser user : users) {
            if (!seen.add(user.username())) {
                throw new IllegalArgumentException("Expected each configured username once, but '"
                        + user.username() + "' appears twice under tokenflow.security.users");
            }
        }
    }

    /**
     * A person from configuration.
     *
     * @param password {@code {noop}…}, {@code {bcrypt}…} (any id the delegating encoder knows), or plain text to hash
     * @param tenants  the tenants the person belongs to (created at start-up when missing); default {@code default}
     */
    public record ConfiguredUser(String username, String password, Set<Role> roles, String displayName,
                                 List<String> tenants) {

        public ConfiguredUser {
            if (username == null || !UserAccount.USERNAME.matcher(username).matches()) {
                throw new IllegalArgumentException("Expected a configured username matching "
                        + UserAccount.USERNAME.pattern() + ", but got '" + username + "'");
            }
            if (password == null || password.isBlank()) {
                throw new IllegalArgumentException(
                        "Expected a password for configured user '" + username + "', but none is set");
            }
            roles = roles == null ? Set.of() : Set.copyOf(roles);
            tenants = tenants == null || tenants.isEmpty() ? List.of(CurrentTenant.DEFAULT)
                    : tenants.stream().distinct().toList();
            for (String tenant : tenants) {
                if (tenant == null || !Tenants.ID.matcher(tenant).matches()) {
                    throw new IllegalArgumentException("Expected tenants of configured user '" + username + "' to be "
                            + "tenant ids (lowercase letters, digits, '-'), but found '" + tenant + "'");
                }
            }
        }

        @Override
        public String toString() {
            return "ConfiguredUser[username=" + username + ", roles=" + roles + ", tenants=" + tenants + "]";
        }
    }

    /**
     * @param lastUsedResolution how stale {@code last_used_at} may get before a use is written again
     * @param maxLifetime        the longest lifetime a token may be issued with
     */
    public record Tokens(Duration lastUsedResolution, Duration maxLifetime) {

        public Tokens {
            lastUsedResolution = lastUsedResolution == null ? Duration.ofMinutes(1) : lastUsedResolution;
            maxLifetime = maxLifetime == null ? Duration.ofDays(366) : maxLifetime;
        }
    }
}
