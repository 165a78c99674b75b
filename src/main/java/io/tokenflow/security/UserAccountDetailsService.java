package io.tokenflow.security;

import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Signs people in (form login, HTTP Basic) against the {@code users} table; roles become {@code ROLE_…}. */
@Service
class UserAccountDetailsService implements UserDetailsService {

    private final UserAccountRepository users;

    UserAccountDetailsService(UserAccountRepository users) {
        this.users = users;
    }

    @Override
    @Transactional(readOnly = true)
    public UserDetails loadUserByUsername(String username) {
        UserAccount account = users.findById(username).orElseThrow(() -> new UsernameNotFoundException(
                "Expected a user named '" + username + "', but there is none"));
        return User.withUsername(account.username())
                .password(account.passwordHash())
                .authorities(account.roles().stream().map(Role::authority).toArray(String[]::new))
                .disabled(!account.isEnabled())
                .build();
    }
}
