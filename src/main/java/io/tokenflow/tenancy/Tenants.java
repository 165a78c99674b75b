package io.tokenflow.tenancy;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;

/**
 * The tenants ({@code tenants}). Quotas are read through a cache of {@link #QUOTA_TTL}, so a changed quota takes effect
 * on every instance within that time (at once on the instance that changed it).
 */
@Service
public class Tenants {

    /** Mirrors the CHECK constraint of {@code tenants.id}. */
    public static final Pattern ID = Pattern.compile("^[a-z0-9][a-z0-9-]{0,39}$");
    static final Duration QUOTA_TTL = Duration.ofSeconds(5);

    private final JdbcClient jdbc;
    private final Clock clock;
    private final LoadingCache<String, Optional<Tenant>> cached;
    private final LoadingCache<Boolean, Set<String>> hopsLimited;

    Tenants(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.cached = Caffeine.newBuilder().expireAfterWrite(QUOTA_TTL).maximumSize(10_000).build(this::load);
        this.hopsLimited = Caffeine.newBuilder().expireAfterWrite(QUOTA_TTL).maximumSize(1).build(any -> Set.copyOf(
                jdbc.sql("select id from tenants where max_hops_per_minute is not null").query(String.class).list()));
    }

    public List<Tenant> all() {
        return jdbc.sql("select * from tenants order by id").query(Tenants::row).list();
    }

    public Optional<Tenant> find(String id) {
        return load(id);
    }

    /** The tenant as read at most {@link #QUOTA_TTL} ago: for the quota checks on the hot path of a start. */
    public Optional<Tenant> cached(String id) {
        return cached.get(id);
    }

    public Tenant require(String id) {
        return find(id).orElseThrow(() -> new NotFoundException("Expected a tenant '" + id + "', but there is none"));
    }

    @Transactional
    public Tenant create(String id, String name, Tenant.Quotas quotas, String actor) {
        checkId(id, "/id");
        checkName(name);
        checkQuotas(quotas);
        int created = jdbc.sql("insert into tenants (id, name, max_runs_in_flight, max_hops_per_minute, created_at, "
                        + "created_by) values (?, ?, ?, ?, ?, ?) on conflict do nothing")
                .params(id, name.strip(), quotas.maxRunsInFlight(), quotas.maxHopsPerMinute(),
                        java.sql.Timestamp.from(clock.instant()), actor).update();
        if (created == 0) {
            throw new ConflictException("Expected a new tenant id, but '" + id + "' is taken");
        }
        hopsLimited.invalidateAll();
        return require(id);
    }

    /** Creates the tenant, named after its id, unless it exists: for tenants named in configuration. */
    public void ensure(String id, String actor) {
        checkId(id, "/tenants");
        jdbc.sql("insert into tenants (id, name, created_at, created_by) values (?, ?, ?, ?) on conflict do nothing")
                .params(id, id, java.sql.Timestamp.from(clock.instant()), actor).update();
    }

    /** Renames a tenant and sets its quotas ({@code null} name: unchanged; a {@code null} quota: no limit). */
    @Transactional
    public Tenant update(String id, String name, Tenant.Quotas quotas) {
        Tenant tenant = require(id);
        if (name != null) {
            checkName(name);
        }
        checkQuotas(quotas);
        jdbc.sql("update tenants set name = ?, max_runs_in_flight = ?, max_hops_per_minute = ? where id = ?")
                .params(name == null ? tenant.name() : name.strip(), quotas.maxRunsInFlight(),
                        quotas.maxHopsPerMinute(), id).update();
        cached.invalidate(id);
        hopsLimited.invalidateAll();
        return require(id);
    }

    /**
     * The tenants with a quota of hops per minute, as read at most {@link #QUOTA_TTL} ago: the supervisor counts the
     * hops of these tenants only.
     */
    public Set<String> withHopsQuota() {
        return hopsLimited.get(Boolean.TRUE);
    }

    /** Throws a 400 naming {@code pointer} unless {@code id} is a well-formed tenant id. */
    public static void checkId(String id, String pointer) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new BadRequestException("Expected a tenant id of lowercase letters, digits and '-' (at most 40, not "
                    + "starting with '-'), but found " + (id == null ? "none" : "'" + id + "'"), pointer);
        }
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank() || name.strip().length() > 100) {
            throw new BadRequestException("Expected \"name\" of 1 to 100 characters, but found "
                    + (name == null ? "none" : name.isBlank() ? "a blank one" : name.length() + " characters"),
                    "/name");
        }
    }

    private static void checkQuotas(Tenant.Quotas quotas) {
        checkQuota("maxRunsInFlight", quotas.maxRunsInFlight());
        checkQuota("maxHopsPerMinute", quotas.maxHopsPerMinute());
    }

    private static void checkQuota(String name, Integer quota) {
        if (quota != null && quota < 1) {
            throw new BadRequestException("Expected \"" + name + "\" to be 1 or more (or null for no limit), but found "
                    + quota, "/" + name);
        }
    }

    private static Tenant row(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new Tenant(rs.getString("id"), rs.getString("name"), rs.getObject("max_runs_in_flight", Integer.class),
                rs.getObject("max_hops_per_minute", Integer.class), rs.getTimestamp("created_at").toInstant(),
                rs.getString("created_by"));
    }

    private Optional<Tenant> load(String id) {
        return jdbc.sql("select * from tenants where id = ?").param(id).query(Tenants::row).optional();
    }
}
