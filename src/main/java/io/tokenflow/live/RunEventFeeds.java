package io.tokenflow.live;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every event of the runs someone looks at, complete and in {@code seq} order: read from {@code event_log} on first
 * use, followed from the tailers afterwards, and repaired when a gap shows (the tailer fell behind and the supervisor
 * deleted entries it had persisted: read them from PostgreSQL; events not persisted yet: read the shard's stream,
 * which holds only those). A cache: any instance rebuilds it from PostgreSQL and Redis; least recently used runs go
 * first once {@code tokenflow.live.cached-events} is reached.
 */
@Component
public class RunEventFeeds {

    private static final long STREAM_SCAN_INTERVAL_NANOS = 500_000_000L;
    private static final int STREAM_PAGE = 1_000;
    private static final int STREAM_SCAN_LIMIT = 50_000;

    private final JdbcClient jdbc;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final JsonMapper json;
    private final LiveSettings settings;
    private final RunLogPosition position;
    private final Map<UUID, RunFeed> feeds = new LinkedHashMap<>(16, 0.75f, true);

    RunEventFeeds(JdbcClient jdbc, RedisConnections redis, RedisKeys keys, JsonMapper json, LiveSettings settings,
                  RunLogPosition position) {
        this.jdbc = jdbc;
        this.position = position;
        this.redis = redis;
        this.keys = keys;
        this.json = json;
        this.settings = settings;
    }

    /** The run's events so far, without gaps (as far as PostgreSQL and Redis have them now). */
    public RunLog log(UUID run) {
        RunFeed feed = feed(run);
        if (feed.hasGap()) {
            repair(feed);
        }
        return feed.log();
    }

    /**
     * Whether a cached run has events this instance has not got, e.g. ones the tailer never saw: the supervisor
     * persisted and deleted them while nobody here watched, or while the tailer was behind. Asks where the run is now
     * (its Redis seq, or PostgreSQL's once Redis let go of the finished run); the next {@link #log} reads what is
     * missing. Runs not cached (read in full when first used) and runs whose feed holds their end are not asked about.
     */
    public boolean behind(UUID run) {
        RunFeed feed;
        synchronized (feeds) {
            feed = feeds.get(run);
        }
        if (feed == null || !feed.loaded || feed.ended()) {
            return false;
        }
        OptionalLong handedOut = position.handedOut(run);
        feed.know(handedOut.isPresent() ? handedOut.getAsLong() : position.persisted(run));
        return feed.hasGap();
    }

    /** Follows a tailed entry when the run is cached; returns whether it is. */
    public boolean offer(LiveEntry entry) {
        RunFeed feed;
        synchronized (feeds) {
            feed = feeds.get(entry.run());
        }
        if (feed == null) {
            return false;
        }
        feed.add(entry.events());
        return true;
    }

    private RunFeed feed(UUID run) {
        RunFeed feed;
        synchronized (feeds) {
            feed = feeds.computeIfAbsent(run, RunFeed::new);
        }
        synchronized (feed.loading) {
            if (!feed.loaded) {
                feed.add(fromLog(run, 0, Long.MAX_VALUE));
                position.handedOut(run).ifPresent(feed::know);
                feed.loaded = true;
                if (feed.last() == 0 && !feed.hasGap()) {
                    forget(feed);
                } else {
                    evictBeyondLimit(feed);
                }
            }
        }
        return feed;
    }

    private void repair(RunFeed feed) {
        synchronized (feed.loading) {
            if (!feed.hasGap()) {
                return;
            }
            feed.add(fromLog(feed.run, feed.last(), feed.missingUpTo()));
            long now = System.nanoTime();
            if (feed.hasGap() && now - feed.streamScannedAtNanos >= STREAM_SCAN_INTERVAL_NANOS) {
                feed.streamScannedAtNanos = now;
                feed.add(fromStream(feed.run));
            }
        }
    }

    private List<LiveEvent> fromLog(UUID run, long after, long upTo) {
        return jdbc.sql("select seq, event_type, node_id, token_id, occurred_at, data::text as data from event_log "
                        + "where run_id = :run and seq > :after and seq <= :upTo order by seq")
                .param("run", run).param("after", after).param("upTo", upTo)
                .query((rs, i) -> new LiveEvent(rs.getLong("seq"), rs.getString("event_type"),
                        rs.getTimestamp("occurred_at").getTime(), rs.getString("node_id"), rs.getString("token_id"),
                        json.readTree(rs.getString("data"))))
                .list();
    }

    /** The run's events still in its shard's stream (not persisted yet, or not yet deleted). */
    private List<LiveEvent> fromStream(UUID run) {
        String stream = keys.eventsStream(keys.shardOf(run));
        String id = run.toString();
        List<LiveEvent> events = new ArrayList<>();
        String from = "-";
        for (int scanned = 0; scanned < STREAM_SCAN_LIMIT; scanned += STREAM_PAGE) {
            List<StreamMessage<String, String>> page = redis.commands().xrange(stream, Range.create(from, "+"),
                    Limit.from(STREAM_PAGE));
            for (StreamMessage<String, String> message : page) {
                if (id.equals(message.getBody().get("run"))) {
                    events.addAll(LiveEvent.all(json.readTree(message.getBody().get("events"))));
                }
            }
            if (page.size() < STREAM_PAGE) {
                break;
            }
            from = "(" + page.get(page.size() - 1).getId();
        }
        return events;
    }

    /** A run with no events yet (or none at all) is not cached: it is read again next time. */
    private void forget(RunFeed feed) {
        synchronized (feeds) {
            feeds.remove(feed.run, feed);
        }
    }

    private void evictBeyondLimit(RunFeed kept) {
        synchronized (feeds) {
            long total = feeds.values().stream().mapToLong(RunFeed::size).sum();
            Iterator<RunFeed> eldest = feeds.values().iterator();
            while (total > settings.cachedEvents() && eldest.hasNext()) {
                RunFeed feed = eldest.next();
                if (feed != kept) {
                    total -= feed.size();
                    eldest.remove();
                }
            }
        }
    }
}
