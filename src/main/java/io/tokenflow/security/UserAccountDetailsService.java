package io.tokenflow.security;

import java.util.List;
import java.util.stream.Collectors;

import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Service;

import io.tokenflow.security.CredentialCache.KnownUser;

/**
 * Signs people in (form login, HTTP Basic) against the {@code users} table, as kept by the {@link CredentialCache};
 * roles become {@code ROLE_…}. A fresh {@code UserDetails} each time (the provider erases its password).
 */
@Service
class UserAccountDetailsService implements UserDetailsService {

    private final UserAccountRepository users;
    private final CredentialCache cache;

    UserAccountDetailsService(UserAccountRepository users, CredentialCache cache) {
        this.users = users;
        this.cache = cache;
    }

    @Override
    public UserDetails loadUserByUsername(String username) {
        KnownUser account = cache.user(username, this::load);
        return User.withUsername(account.username())
                .password(account.passwordHash())
                .authorities(account.authorities().toArray(String[]::new))
                .disabled(!account.enabled())
                .build();
    }

    /**
     * The tenants a person belongs to now (cached like their roles); empty when there is no such person.
     *
     * @throws org.springframework.security.authentication.InternalAuthenticationServiceException while PostgreSQL is
     *         away and the account is not cached
     */
    List<String> tenantsOf(String username) {
        try {
            return cache.user(username, this::load).tenants();
        } catch (UsernameNotFoundException gone) {
            return List.of();
        }
    }

    private KnownUser load(String username) {
        UserAccount account = users.findById(username).orElseThrow(() -> new UsernameNotFoundException(
                "Expected a user named '" + username + "', but there is none"));
        return new KnownUser(account.username(), account.passwordHash(),
                account.roles().stream().map(Role::authority).collect(Collectors.toSet()), account.isEnabled(),
                account.tenants());
    }
}
