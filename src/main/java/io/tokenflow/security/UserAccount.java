package io.tokenflow.security;

import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A person who signs in: one row of {@code users}. */
@Entity
@Table(name = "users")
class UserAccount {

    /** Mirrors the CHECK constraint of {@code users.username}. */
    static final Pattern USERNAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$");

    @Id
    private String username;

    @Column(name = "password_hash", nullable = false)
    private String passwordHash;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb", nullable = false)
    private List<String> roles;

    @Column(name = "display_name")
    private String displayName;

    /** The tenants the person belongs to (at least one); the first is where a new session starts. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb", nullable = false)
    private List<String> tenants;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private UserSource source;

    @Column(nullable = false)
    private boolean enabled;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected UserAccount() {
    }

    UserAccount(String username, String passwordHash, Collection<Role> roles, String displayName,
                List<String> tenants, UserSource source, Instant now) {
        this.username = username;
        this.passwordHash = passwordHash;
        this.roles = roleIds(roles);
        this.displayName = displayName;
        this.tenants = List.copyOf(tenants);
        this.source = source;
        this.enabled = true;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /** Makes this account match its configuration; touches {@code updated_at} only when something changed. */
    void configure(String passwordHash, Collection<Role> roles, String displayName, List<String> tenants,
                   Instant now) {
        List<String> ids = roleIds(roles);
        boolean unchanged = this.passwordHash.equals(passwordHash) && this.roles.equals(ids)
                && Objects.equals(this.displayName, displayName) && this.tenants.equals(tenants)
                && source == UserSource.CONFIGURATION && enabled;
        if (unchanged) {
            return;
        }
        this.passwordHash = passwordHash;
        this.roles = ids;
        this.displayName = displayName;
        this.tenants = List.copyOf(tenants);
        this.source = UserSource.CONFIGURATION;
        this.enabled = true;
        this.updatedAt = now;
    }

    void changeRoles(Collection<Role> roles, Instant now) {
        this.roles = roleIds(roles);
        this.updatedAt = now;
    }

    String username() {
        return username;
    }

    String passwordHash() {
        return passwordHash;
    }

    /** The roles this account holds; stored ids that name no role are ignored. */
    Set<Role> roles() {
        Set<Role> known = EnumSet.noneOf(Role.class);
        roles.forEach(id -> Role.fromId(id).ifPresent(known::add));
        return known;
    }

    List<String> tenants() {
        return List.copyOf(tenants);
    }

    Optional<String> displayName() {
        return Optional.ofNullable(displayName);
    }

    UserSource source() {
        return source;
    }

    boolean isEnabled() {
        return enabled;
    }

    Instant updatedAt() {
        return updatedAt;
    }

    /** An administrator's change; {@code null} leaves that part as it is. Touches {@code updated_at}. */
    void administer(String displayName, Collection<Role> roles, List<String> tenants, Boolean enabled,
                    String passwordHash, Instant now) {
        if (tenants != null) {
            this.tenants = List.copyOf(tenants);
        }
        if (displayName != null) {
            this.displayName = displayName.isBlank() ? null : displayName;
        }
        if (roles != null) {
            this.roles = roleIds(roles);
        }
        if (enabled != null) {
            this.enabled = enabled;
        }
        if (passwordHash != null) {
            this.passwordHash = passwordHash;
        }
        this.updatedAt = now;
    }

    Instant createdAt() {
        return createdAt;
    }

    private static List<String> roleIds(Collection<Role> roles) {
        return roles.isEmpty() ? List.of() : EnumSet.copyOf(roles).stream().map(Role::id).toList();
    }
}
