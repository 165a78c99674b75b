package io.tokenflow.security;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.Tenants;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;

/**
 * Administrators create people, change their roles, tenants, names and passwords, and disable or enable them, in the
 * {@code users} table (passwords as bcrypt). People from {@code tokenflow.security.users} are refused here (their
 * configuration is written again on every start). An administrator cannot disable themselves or take away their own
 * admin role, and the last enabled admin stays one; everyone belongs to at least one existing tenant. A change takes
 * effect on this instance at once — the person's open sessions carry the new roles and tenants from their next
 * request, a disabled person's sessions and API tokens stop — and on other instances within
 * {@code tokenflow.security.credential-cache-ttl}. Every change is audited.
 */
@Service
public class UserAdministration {

    static final int MIN_PASSWORD_LENGTH = 12;
    /** bcrypt reads no more than 72 bytes. */
    static final int MAX_PASSWORD_BYTES = 72;

    private final UserAccountRepository users;
    private final PasswordEncoder encoder;
    private final SecretGenerator secrets;
    private final CredentialCache cache;
    private final AuditLog audit;
    private final Tenants tenants;
    private final Clock clock;

    UserAdministration(UserAccountRepository users, PasswordEncoder encoder, SecretGenerator secrets,
                       CredentialCache cache, AuditLog audit, Tenants tenants, Clock clock) {
        this.tenants = tenants;
        this.users = users;
        this.encoder = encoder;
        this.secrets = secrets;
        this.cache = cache;
        this.audit = audit;
        this.clock = clock;
    }

    /** Everyone, by username. */
    public List<UserSummary> list() {
        return users.findAll().stream().map(UserSummary::of)
                .sorted(java.util.Comparator.comparing(UserSummary::username)).toList();
    }

    /** Creates a person; without a password one is generated and returned this once. */
    @Transactional
    public CreatedUser create(NewUser user, String by, String remoteAddress) {
        if (user.username() == null || !UserAccount.USERNAME.matcher(user.username()).matches()) {
            throw new BadRequestException("Expected username to match " + UserAccount.USERNAME.pattern() + ", but got "
                    + (user.username() == null ? "none" : "'" + user.username() + "'"), "/username");
        }
        if (users.existsById(user.username())) {
            throw new ConflictException("Expected a new username, but '" + user.username() + "' exists");
        }
        List<String> memberOf = checkedTenants(user.tenants() == null ? List.of(CurrentTenant.DEFAULT)
                : user.tenants());
        String generated = user.password() == null ? secrets.password() : null;
        String password = generated != null ? generated : checkedPassword(user.password());
        UserAccount account = users.save(new UserAccount(user.username(), encoder.encode(password), user.roles(),
                blankToNull(user.displayName()), memberOf, UserSource.ADMIN, clock.instant()));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("roles", UserSummary.of(account).roles());
        details.put("tenants", memberOf);
        details.put("passwordGenerated", generated != null);
        audit.record(by, "user.created", account.username(), details, remoteAddress);
        return new CreatedUser(UserSummary.of(account), generated);
    }

    /** Changes a person; parts left null stay as they are. */
    @Transactional
    public UserSummary change(String username, UserChange change, String by, String remoteAddress) {
        UserAccount account = users.findById(username).orElseThrow(() -> new NotFoundException(
                "Expected a user named '" + username + "', but there is none"));
        if (account.source() == UserSource.CONFIGURATION) {
            throw new ConflictException("Expected a user created here, but '" + username + "' comes from "
                    + "tokenflow.security.users, which is written again on every start: change it there");
        }
        boolean losesAdmin = account.roles().contains(Role.ADMIN) && account.isEnabled()
                && ((change.roles() != null && !change.roles().contains(Role.ADMIN))
                || Boolean.FALSE.equals(change.enabled()));
        if (losesAdmin && username.equals(by)) {
            throw new ConflictException("Expected another administrator to do this, but you cannot disable yourself "
                    + "or take away your own admin role");
        }
        if (losesAdmin && enabledAdmins() <= 1) {
            throw new ConflictException("Expected another enabled admin to remain, but '" + username
                    + "' is the last one");
        }
        String hash = change.password() == null ? null : encoder.encode(checkedPassword(change.password()));
        List<String> memberOf = change.tenants() == null ? null : checkedTenants(change.tenants());
        account.administer(change.displayName(), change.roles(), memberOf, change.enabled(), hash, clock.instant());
        cache.forgetAll();
        Map<String, Object> details = new LinkedHashMap<>();
        if (change.displayName() != null) {
            details.put("displayName", change.displayName());
        }
        if (change.roles() != null) {
            details.put("roles", UserSummary.of(account).roles());
        }
        if (memberOf != null) {
            details.put("tenants", memberOf);
        }
        if (change.enabled() != null) {
            details.put("enabled", change.enabled());
        }
        if (hash != null) {
            details.put("passwordChanged", true);
        }
        audit.record(by, "user.changed", username, details, remoteAddress);
        return UserSummary.of(account);
    }

    private long enabledAdmins() {
        return users.findAll().stream().filter(UserAccount::isEnabled).filter(u -> u.roles().contains(Role.ADMIN))
                .count();
    }

    /** The tenants, each named once and existing, at least one. */
    private List<String> checkedTenants(List<String> ids) {
        if (ids.isEmpty()) {
            throw new BadRequestException("Expected at least one tenant, but tenants is empty", "/tenants");
        }
        List<String> distinct = ids.stream().distinct().toList();
        for (int i = 0; i < distinct.size(); i++) {
            String id = distinct.get(i);
            Tenants.checkId(id, "/tenants/" + ids.indexOf(id));
            if (tenants.find(id).isEmpty()) {
                throw new BadRequestException("Expected an existing tenant, but there is no tenant '" + id + "'",
                        "/tenants/" + ids.indexOf(id));
            }
        }
        return distinct;
    }

    private static String checkedPassword(String password) {
        if (password.length() < MIN_PASSWORD_LENGTH
                || password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw new BadRequestException("Expected a password of at least " + MIN_PASSWORD_LENGTH + " characters and "
                    + "at most " + MAX_PASSWORD_BYTES + " bytes, but it has " + password.length() + " characters",
                    "/password");
        }
        return password;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    /** A person to create; a null password asks for a generated one. */
    public record NewUser(String username, String displayName, Set<Role> roles, String password,
                          List<String> tenants) {

        /** A person in the default tenant. */
        public NewUser(String username, String displayName, Set<Role> roles, String password) {
            this(username, displayName, roles, password, null);
        }

        public NewUser {
            roles = roles == null ? Set.of() : Set.copyOf(roles);
        }
    }

    /** A change to a person; null parts stay as they are (an empty display name clears it). */
    public record UserChange(String displayName, Set<Role> roles, Boolean enabled, String password,
                             List<String> tenants) {
    }

    /** A person just created, with the generated password (shown once) when none was given. */
    public record CreatedUser(UserSummary user, String generatedPassword) {
    }
}
