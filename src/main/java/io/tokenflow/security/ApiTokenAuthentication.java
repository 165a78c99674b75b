package io.tokenflow.security;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * A request authenticated by an API token: {@link #getName()} is the owner's username, and the authorities are
 * {@code SCOPE_…} for the token's scopes that the owner's roles still allow (never {@code ROLE_…}).
 */
public final class ApiTokenAuthentication extends AbstractAuthenticationToken {

    private final String owner;
    private final UUID tokenId;
    private final Set<Scope> scopes;
    private final String tenant;
    private transient ApiTokenSecret secret;

    private ApiTokenAuthentication(String owner, UUID tokenId, Set<Scope> scopes, String tenant,
                                   ApiTokenSecret secret) {
        super(scopes.stream().map(Scope::authority).map(SimpleGrantedAuthority::new).toList());
        this.owner = owner;
        this.tokenId = tokenId;
        this.scopes = Set.copyOf(scopes);
        this.tenant = tenant;
        this.secret = secret;
        super.setAuthenticated(owner != null);
    }

    static ApiTokenAuthentication unverified(ApiTokenSecret secret) {
        return new ApiTokenAuthentication(null, null, Set.of(), null, secret);
    }

    static ApiTokenAuthentication verified(String owner, UUID tokenId, Set<Scope> scopes, String tenant) {
        return new ApiTokenAuthentication(owner, tokenId, scopes, tenant, null);
    }

    /** The tenant the token acts in: the one it was created in. */
    public String tenant() {
        return tenant;
    }

    /** The owner's username, or {@code ""} before verification. */
    @Override
    public Object getPrincipal() {
        return owner == null ? "" : owner;
    }

    @Override
    public Object getCredentials() {
        return secret;
    }

    ApiTokenSecret secret() {
        return secret;
    }

    public UUID tokenId() {
        return tokenId;
    }

    /** The scopes in effect for this request. */
    public Set<Scope> scopes() {
        return scopes;
    }

    @Override
    public void setAuthenticated(boolean authenticated) {
        if (authenticated) {
            throw new IllegalArgumentException("Expected only the token verifier to authenticate a token, "
                    + "but setAuthenticated(true) was called");
        }
        super.setAuthenticated(false);
    }

    @Override
    public void eraseCredentials() {
        super.eraseCredentials();
        secret = null;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ApiTokenAuthentication that && super.equals(that)
                && Objects.equals(tokenId, that.tokenId);
    }

    @Override
    public int hashCode() {
        return super.hashCode() * 31 + Objects.hashCode(tokenId);
    }

    @Override
    public String toString() {
        return "ApiTokenAuthentication[owner=" + owner + ", token=" + tokenId + ", scopes=" + List.copyOf(scopes) + "]";
    }
}
