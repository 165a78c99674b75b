package io.tokenflow.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.NotFoundException;

/** Issues, lists and revokes the API tokens of one owner. */
@Service
public class ApiTokenService {

    static final int MAX_NAME_LENGTH = 100;

    private final ApiTokenRepository tokens;
    private final UserAccountRepository users;
    private final SecretGenerator secrets;
    private final CredentialCache cache;
    private final SecuritySettings settings;
    private final Clock clock;

    ApiTokenService(ApiTokenRepository tokens, UserAccountRepository users, SecretGenerator secrets,
                    CredentialCache cache, SecuritySettings settings, Clock clock) {
        this.tokens = tokens;
        this.cache = cache;
        this.users = users;
        this.secrets = secrets;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Issues a token to {@code owner} and returns it with its secret, which is not kept anywhere.
     *
     * @param lifetime how long the token is valid, or {@code null} for a token that does not expire
     * @throws TokenRequestRejectedException when the name, scopes or lifetime are not acceptable, in particular a
     *                                       scope the owner's roles do not allow
     */
    @Transactional
    public IssuedToken issue(String owner, String name, Set<Scope> scopes, Duration lifetime) {
        return issue(owner, CurrentTenant.forNewRows(), name, scopes,
                now -> lifetime == null ? null : now.plus(lifetime));
    }

    /** {@link #issue(String, String, Set, Duration)} acting in {@code tenant}, to which the owner must belong. */
    @Transactional
    public IssuedToken issueIn(String owner, String tenant, String name, Set<Scope> scopes, Duration lifetime) {
        return issue(owner, tenant, name, scopes, now -> lifetime == null ? null : now.plus(lifetime));
    }

    /** {@link #issue(String, String, Set, Duration)} with the instant it expires at ({@code null}: never). */
    @Transactional
    public IssuedToken issueUntil(String owner, String tenant, String name, Set<Scope> scopes, Instant expiresAt) {
        return issue(owner, tenant, name, scopes, now -> expiresAt);
    }

    private IssuedToken issue(String owner, String tenant, String name, Set<Scope> scopes,
                              UnaryOperator<Instant> expiry) {
        UserAccount account = users.findById(owner).filter(UserAccount::isEnabled).orElseThrow(() ->
                new TokenRequestRejectedException("Expected an enabled user '" + owner + "', but there is none"));
        if (!account.tenants().contains(tenant)) {
            throw new TokenRequestRejectedException("Expected '" + owner + "' to belong to the tenant '" + tenant
                    + "' the token would act in, but they belong to " + account.tenants());
        }
        checkName(name);
        checkScopes(account, scopes);
        Instant now = clock.instant();
        Instant expiresAt = expiry.apply(now);
        checkLifetime(expiresAt == null ? null : Duration.between(now, expiresAt));
        ApiTokenSecret secret = secrets.apiTokenSecret();
        ApiToken token = tokens.save(new ApiToken(owner, tenant, name.strip(), scopes, secret.hash(), now, expiresAt));
        return new IssuedToken(token.id(), token.name(), owner, token.scopes(), now, token.expiresAt(), secret.value());
    }

    /** The owner's tokens acting in {@code tenant}, newest first, revoked and expired ones included. */
    @Transactional(readOnly = true)
    public List<ApiTokenSummary> list(String owner, String tenant) {
        return tokens.findByOwnerAndTenantOrderByCreatedAtDesc(owner, tenant).stream().map(ApiTokenSummary::of)
                .toList();
    }

    /**
     * Revokes one of the owner's tokens, at once on this instance (the {@link CredentialCache} forgets it) and within
     * the cache's TTL on others; revoking a revoked token changes nothing.
     *
     * @throws NotFoundException when {@code owner} has no token with this id
     */
    @Transactional
    public void revoke(String owner, UUID id) {
        revoke(owner, CurrentTenant.forNewRows(), id);
    }

    /** {@link #revoke(String, UUID)} of a token acting in {@code tenant}. */
    @Transactional
    public void revoke(String owner, String tenant, UUID id) {
        ApiToken token = tokens.findByIdAndOwnerAndTenant(id, owner, tenant).orElseThrow(() -> new NotFoundException(
                "Expected a token with id " + id + " owned by '" + owner + "' in tenant '" + tenant
                        + "', but there is none"));
        token.revoke(clock.instant());
        cache.forgetToken(token.tokenHash());
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                cache.forgetToken(token.tokenHash()); // a request that read the row before the commit cached it
            }
        });
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank() || name.strip().length() > MAX_NAME_LENGTH) {
            throw new TokenRequestRejectedException("Expected a token name of 1 to " + MAX_NAME_LENGTH
                    + " characters, but got " + (name == null ? "none" : name.strip().length() + " characters"));
        }
    }

    private static void checkScopes(UserAccount owner, Set<Scope> scopes) {
        if (scopes == null || scopes.isEmpty()) {
            throw new TokenRequestRejectedException("Expected at least one scope among " + Scope.allValues()
                    + ", but got none");
        }
        Set<Scope> allowed = Role.scopesAllowedFor(owner.roles());
        Set<Scope> refused = EnumSet.copyOf(scopes);
        refused.removeAll(allowed);
        if (!refused.isEmpty()) {
            throw new TokenRequestRejectedException("Expected scopes that the roles " + roleIds(owner) + " of '"
                    + owner.username() + "' allow " + allowed + ", but '" + refused.iterator().next()
                    + "' is not among them");
        }
    }

    private void checkLifetime(Duration lifetime) {
        Duration max = settings.tokens().maxLifetime();
        if (lifetime != null && (lifetime.isNegative() || lifetime.isZero() || lifetime.compareTo(max) > 0)) {
            throw new TokenRequestRejectedException("Expected a token lifetime above zero and at most "
                    + max.toDays() + " days, but got " + describe(lifetime));
        }
    }

    private static String describe(Duration lifetime) {
        return lifetime.equals(Duration.ofDays(lifetime.toDays())) ? lifetime.toDays() + " days" : lifetime.toString();
    }

    private static List<String> roleIds(UserAccount owner) {
        return owner.roles().stream().map(Role::id).toList();
    }
}
