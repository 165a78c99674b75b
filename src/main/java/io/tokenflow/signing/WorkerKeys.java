package io.tokenflow.signing;

import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.NotFoundException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Worker keys in PostgreSQL ({@code worker_keys}), and the ones in use kept in memory (Caffeine): checking a signal
 * costs no database round trip. A key read more than {@code tokenflow.signals.key-cache-ttl} ago is read again in the
 * background on its next use (so a key made or revoked on another instance takes effect here then); while PostgreSQL
 * cannot answer, the last one read is used, for a day, so signals keep flowing through an outage. An unknown id is
 * kept as unknown the same way, so signals naming made-up keys cannot make every check a query.
 */
@Component
public class WorkerKeys {

    /** What a key's name may be. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}");
    /** What a node (worker) type's name may be: the names node types are registered with, and the built-in ones. */
    static final Pattern NODE_TYPE = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private static final int SECRET_BYTES = 32;
    private static final int ID_BYTES = 8;
    private static final String BUILT_IN_NAME = "built-in";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** How long a key read once is still used while PostgreSQL cannot be asked again. */
    private static final Duration LAST_KNOWN = Duration.ofDays(1);

    private final JdbcClient jdbc;
    private final Clock clock;
    private final SigningSettings settings;
    private final SecureRandom random = new SecureRandom();
    private final LoadingCache<String, Optional<WorkerKey>> byId;
    private final LoadingCache<Boolean, WorkerKey> builtIn;

    WorkerKeys(JdbcClient jdbc, Clock clock, SigningSettings settings) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.settings = settings;
        this.byId = Caffeine.newBuilder().refreshAfterWrite(settings.keyCacheTtl()).expireAfterWrite(LAST_KNOWN)
                .maximumSize(10_000).build(this::read);
        this.builtIn = Caffeine.newBuilder().refreshAfterWrite(settings.keyCacheTtl()).expireAfterWrite(LAST_KNOWN)
                .build(ignored -> currentBuiltIn()
                        .orElseGet(() -> insert(BUILT_IN_NAME, "tokenflow", true, null, null)));
    }

    /**
     * Creates a key for external workers of the current tenant, for the given node types only (null: every type): it
     * reports only on the tenant's runs. Its secret is returned this once.
     */
    public CreatedWorkerKey create(String name, List<String> nodeTypes, String createdBy) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new BadRequestException("Expected name to match " + NAME.pattern() + ", but got "
                    + (name == null ? "none" : "'" + name + "'"), "/name");
        }
        if (nodeTypes != null) {
            if (nodeTypes.isEmpty()) {
                throw new BadRequestException("Expected nodeTypes to name at least one node type (leave it out for "
                        + "every type), but it is empty", "/nodeTypes");
            }
            for (int i = 0; i < nodeTypes.size(); i++) {
                String type = nodeTypes.get(i);
                if (type == null || !NODE_TYPE.matcher(type).matches()) {
                    throw new BadRequestException("Expected a node type name matching " + NODE_TYPE.pattern()
                            + ", but got " + (type == null ? "none" : "'" + type + "'"), "/nodeTypes/" + i);
                }
            }
        }
        WorkerKey key = insert(name, createdBy, false, nodeTypes == null ? null : new TreeSet<>(nodeTypes),
                CurrentTenant.forNewRows());
        return new CreatedWorkerKey(key.id(), key.name(), key.tenant(), WorkerKeySummary.of(key).nodeTypes(),
                key.secret(),
                key.createdAt());
    }

    /** The current tenant's keys and the built-in ones, newest first, without secrets. */
    public List<WorkerKeySummary> list() {
        return jdbc.sql("select * from worker_keys where built_in or cast(:tenant as text) is null "
                        + "or tenant_id = :tenant order by created_at desc, id").param("tenant", CurrentTenant.orNull())
                .query(WorkerKeys::row).list().stream().map(WorkerKeySummary::of).toList();
    }

    /**
     * Revokes a key of the current tenant (or a built-in one) now: signals written from now on with it are refused (on
     * every instance within the cache TTL).
     */
    public WorkerKeySummary revoke(String id) {
        if (read(id).filter(found -> found.builtIn() || CurrentTenant.sees(found.tenant())).isEmpty()) {
            throw new NotFoundException("Expected a worker key '" + id + "', but there is none");
        }
        int updated = jdbc.sql("update worker_keys set revoked_at = :at where id = :id and (revoked_at is null or "
                + "revoked_at > :at)").param("at", Timestamp.from(clock.instant())).param("id", id).update();
        byId.invalidate(id);
        builtIn.invalidateAll();
        WorkerKey key = read(id).orElseThrow(() -> new NotFoundException("Expected a worker key '" + id
                + "', but there is none"));
        if (updated == 0 && key.revokedAt() == null) {
            throw new IllegalStateException("Expected worker key " + id + " to be revoked, but it was not");
        }
        return WorkerKeySummary.of(key);
    }

    /**
     * Gives this application's own components a new key to sign with; the old ones stay valid for
     * {@code tokenflow.signals.built-in-grace} (every instance switches within the cache TTL).
     */
    @Transactional
    public WorkerKeySummary rotateBuiltIn(String by) {
        Instant graceEnds = clock.instant().plus(settings.builtInGrace());
        jdbc.sql("update worker_keys set revoked_at = :at where built_in and (revoked_at is null or revoked_at > :at)")
                .param("at", Timestamp.from(graceEnds)).update();
        WorkerKey key = insert(BUILT_IN_NAME, by, true, null, null);
        builtIn.invalidateAll();
        return WorkerKeySummary.of(key);
    }

    /** The key with this id, revoked or not, if it exists. */
    Optional<WorkerKey> find(String id) {
        return byId.get(id);
    }

    /**
     * The key this application's own components sign with: the newest built-in key not revoked (nor due to be), made
     * on first need. Two instances starting at once may each make one; both are valid, the newer is used.
     */
    WorkerKey builtIn() {
        return builtIn.get(Boolean.TRUE);
    }

    private Optional<WorkerKey> currentBuiltIn() {
        return jdbc.sql("select * from worker_keys where built_in and revoked_at is null order by created_at desc "
                + "limit 1").query(WorkerKeys::row).optional();
    }

    private Optional<WorkerKey> read(String id) {
        return jdbc.sql("select * from worker_keys where id = :id").param("id", id).query(WorkerKeys::row).optional();
    }

    private WorkerKey insert(String name, String createdBy, boolean builtInKey, Set<String> nodeTypes, String tenant) {
        byte[] secret = new byte[SECRET_BYTES];
        random.nextBytes(secret);
        byte[] id = new byte[ID_BYTES];
        random.nextBytes(id);
        WorkerKey key = new WorkerKey("wk_" + HexFormat.of().formatHex(id), name,
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret), builtInKey, clock.instant(), createdBy,
                nodeTypes == null ? null : Set.copyOf(nodeTypes), null, tenant);
        jdbc.sql("insert into worker_keys (id, name, secret, built_in, node_types, created_at, created_by, tenant_id) "
                        + "values (:id, :name, :secret, :builtIn, cast(:types as jsonb), :at, :by, :tenant)")
                .param("id", key.id()).param("tenant", tenant)
                .param("name", key.name()).param("secret", key.secret()).param("builtIn", builtInKey)
                .param("types", nodeTypes == null ? null : JSON.writeValueAsString(nodeTypes))
                .param("at", Timestamp.from(key.createdAt())).param("by", createdBy).update();
        byId.invalidate(key.id());
        return key;
    }

    private static WorkerKey row(ResultSet rs, int index) throws SQLException {
        Timestamp revoked = rs.getTimestamp("revoked_at");
        String types = rs.getString("node_types");
        Set<String> nodeTypes = null;
        if (types != null) {
            nodeTypes = new TreeSet<>();
            for (JsonNode type : JSON.readTree(types)) {
                nodeTypes.add(type.asString());
            }
        }
        return new WorkerKey(rs.getString("id"), rs.getString("name"), rs.getString("secret"),
                rs.getBoolean("built_in"), rs.getTimestamp("created_at").toInstant(), rs.getString("created_by"),
                nodeTypes, revoked == null ? null : revoked.toInstant(), rs.getString("tenant_id"));
    }
}
