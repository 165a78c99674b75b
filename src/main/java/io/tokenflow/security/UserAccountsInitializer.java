package io.tokenflow.security;

import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.Tenants;

/**
 * Brings {@code users} in line with configuration at start-up: upserts configured users, and when there is no user
 * at all and none is configured, creates {@code admin} with a random password that is logged exactly once.
 */
@Component
class UserAccountsInitializer {

    static final String GENERATED_ADMIN = "admin";
    private static final Logger log = LoggerFactory.getLogger(UserAccountsInitializer.class);

    private final UserAccountRepository users;
    private final SecuritySettings settings;
    private final PasswordEncoder passwordEncoder;
    private final SecretGenerator secrets;
    private final Tenants tenants;
    private final Clock clock;

    UserAccountsInitializer(UserAccountRepository users, SecuritySettings settings, PasswordEncoder passwordEncoder,
                            SecretGenerator secrets, Tenants tenants, Clock clock) {
        this.tenants = tenants;
        this.users = users;
        this.settings = settings;
        this.passwordEncoder = passwordEncoder;
        this.secrets = secrets;
        this.clock = clock;
    }

    @Transactional
    public void initialise() {
        users.lockForInitialisation();
        Instant now = clock.instant();
        settings.users().stream().flatMap(user -> user.tenants().stream()).distinct()
                .forEach(tenant -> tenants.ensure(tenant, "configuration"));
        settings.users().forEach(user -> upsert(user, now));
        if (settings.users().isEmpty() && users.count() == 0) {
            createGeneratedAdmin(now);
        }
    }

    private void upsert(SecuritySettings.ConfiguredUser user, Instant now) {
        ConfiguredPassword password = new ConfiguredPassword(user.password());
        users.findById(user.username()).ifPresentOrElse(
                existing -> existing.configure(password.hash(existing.passwordHash(), passwordEncoder),
                        user.roles(), user.displayName(), user.tenants(), now),
                () -> users.save(new UserAccount(user.username(), password.hash(null, passwordEncoder),
                        user.roles(), user.displayName(), user.tenants(), UserSource.CONFIGURATION, now)));
    }

    private void createGeneratedAdmin(Instant now) {
        String password = secrets.password();
        users.save(new UserAccount(GENERATED_ADMIN, passwordEncoder.encode(password), EnumSet.allOf(Role.class),
                "Administrator", List.of(CurrentTenant.DEFAULT), UserSource.GENERATED, now));
        log.warn(String.format("%n%nUsing generated password for user '%s': %s%n%n"
                        + "It is shown only this once and stored only as a hash. Configure people under "
                        + "tokenflow.security.users for anything but a trial.%n",
                GENERATED_ADMIN, password));
    }
}
