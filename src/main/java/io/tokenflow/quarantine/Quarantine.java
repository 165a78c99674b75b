package io.tokenflow.quarantine;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.StorableValues;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.TenantSql;

/**
 * The {@code quarantined_entries} table: stream entries set aside with their raw text and the reason. Adding an entry
 * twice (its reader failed before acknowledging it, and reads it again) keeps the first.
 */
@Component
public class Quarantine {

    static final int LIMIT = 200;
    private static final String SELECT = "select id, quarantined_at, shard, stream, entry_id, run_id, first_seq, "
            + "last_seq, raw, reason from quarantined_entries ";

    private final JdbcClient jdbc;
    private final Clock clock;

    Quarantine(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Sets the entry aside (in a transaction of its own); returns its quarantine id (the first one's, if there). */
    public long add(NewQuarantinedEntry entry) {
        return jdbc.sql("insert into quarantined_entries (quarantined_at, shard, stream, entry_id, run_id, first_seq, "
                        + "last_seq, raw, reason) values (:at, :shard, :stream, :entry, :run, :first, :last, :raw, "
                        + ":reason) on conflict (stream, entry_id) do update set stream = excluded.stream returning id")
                .param("at", OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)).param("shard", entry.shard())
                .param("stream", StorableValues.storable(entry.stream())).param("entry", StorableValues.storable(entry.entryId()))
                .param("run", entry.runId()).param("first", entry.firstSeq()).param("last", entry.lastSeq())
                .param("raw", RawText.of(entry.fields())).param("reason", StorableValues.storable(entry.reason()))
                .query(Long.class).single();
    }

    /**
     * The newest entries of the current tenant's runs first, at most {@link #LIMIT} (entries that name no run: the
     * default tenant's).
     */
    public List<QuarantinedEntry> newest() {
        return jdbc.sql(SELECT + "where " + TenantSql.ownsRun("run_id") + " order by quarantined_at desc, id desc "
                + "limit " + LIMIT).param("tenant", CurrentTenant.orNull()).query(this::entry).list();
    }

    /** The page of the current tenant's entries that starts at entry {@code offset} (from 0), newest first. */
    public List<QuarantinedEntry> page(long offset, int size) {
        return jdbc.sql(SELECT + "where " + TenantSql.ownsRun("run_id") + " order by quarantined_at desc, id desc "
                + "limit :size offset :offset").param("tenant", CurrentTenant.orNull()).param("size", size)
                .param("offset", offset).query(this::entry).list();
    }

    /** How many entries of the current tenant's runs there are. */
    public long count() {
        return jdbc.sql("select count(*) from quarantined_entries where " + TenantSql.ownsRun("run_id"))
                .param("tenant", CurrentTenant.orNull()).query(Long.class).single();
    }

    /**
     * For those of the runs with quarantined events: the seqs set aside, by their first seq. The event log of such a
     * run goes on after them.
     */
    public Map<UUID, NavigableMap<Long, QuarantinedSeqs>> skippedSeqs(Collection<UUID> runs) {
        Map<UUID, NavigableMap<Long, QuarantinedSeqs>> skipped = new HashMap<>();
        if (runs.isEmpty()) {
            return skipped;
        }
        jdbc.sql("select id, run_id, first_seq, last_seq, entry_id, quarantined_at from quarantined_entries "
                        + "where run_id in (:runs) and first_seq is not null order by id")
                .param("runs", List.copyOf(runs))
                .query((ResultSet rs) -> {
                    QuarantinedSeqs seqs = new QuarantinedSeqs(rs.getLong("first_seq"), rs.getLong("last_seq"),
                            rs.getLong("id"), rs.getString("entry_id"),
                            rs.getObject("quarantined_at", OffsetDateTime.class).toInstant());
                    skipped.computeIfAbsent(rs.getObject("run_id", UUID.class), run -> new TreeMap<>())
                            .putIfAbsent(seqs.first(), seqs);
                });
        return skipped;
    }

    private QuarantinedEntry entry(ResultSet rs, int row) throws SQLException {
        return new QuarantinedEntry(rs.getLong("id"), rs.getObject("quarantined_at", OffsetDateTime.class).toInstant(),
                rs.getInt("shard"), rs.getString("stream"), rs.getString("entry_id"),
                rs.getObject("run_id", UUID.class), rs.getObject("first_seq", Long.class),
                rs.getObject("last_seq", Long.class), rs.getString("raw"), rs.getString("reason"));
    }
}
