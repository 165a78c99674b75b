package io.tokenflow.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.TestWorkflows;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's feed has no gaps whatever this instance missed: events it never saw are read from {@code event_log}, and
 * events not persisted yet from the shard's events stream. The supervisor and this instance's tailer are off, so
 * only the feed's own repair can fill the gaps.
 */
@SpringBootTest(properties = {"tokenflow.supervisor.enabled=false", "tokenflow.live.enabled=false",
        "tokenflow.coordinator.enabled=false", "tokenflow.workers.enabled=false"})
@ActiveProfiles("test")
class RunEventFeedsIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired RunEventFeeds feeds;
    @Autowired JdbcClient jdbc;
    @Autowired CreateWorkflow creating;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;

    @Test
    void fillsGapsFromTheEventLogAndThenFromTheStream() {
        UUID run = startedRun();
        persist(run, 1, 5);
        assertThat(seqs(feeds.log(run))).containsExactly(1L, 2L, 3L, 4L, 5L);

        persist(run, 6, 8);
        assertThat(feeds.offer(new LiveEntry(run, List.of(event(9))))).isTrue();
        assertThat(seqs(feeds.log(run))).as("6..8 read from event_log").containsExactlyElementsOf(range(1, 9));

        redis.commands().xadd(keys.eventsStream(keys.shardOf(run)), "run", run.toString(), "events",
                "[" + json(event(10)) + "," + json(event(11)) + "]");
        feeds.offer(new LiveEntry(run, List.of(event(12))));
        RunLog log = feeds.log(run);
        assertThat(seqs(log)).as("10..11 read from the stream").containsExactlyElementsOf(range(1, 12));
        assertThat(log.replayableUpTo(12)).hasSize(12);
    }

    @Test
    void findsEventsTheTailerNeverSawByAskingWhereTheRunIsNow() {
        UUID run = startedRun();
        persist(run, 1, 5);
        assertThat(seqs(feeds.log(run))).containsExactlyElementsOf(range(1, 5));

        // 6..7 happened while no page here watched: the supervisor persisted them and deleted them from the stream
        // before any tailer read them, and nothing later in the run would show the gap
        persist(run, 6, 7);
        String meta = keys.run(run).meta();
        redis.commands().hset(meta, "seq", "7");
        assertThat(seqs(feeds.log(run))).as("not seen yet").containsExactlyElementsOf(range(1, 5));
        assertThat(feeds.behind(run)).isTrue();
        assertThat(seqs(feeds.log(run))).containsExactlyElementsOf(range(1, 7));
        assertThat(feeds.behind(run)).isFalse();

        // the run ended and Redis let go of it: PostgreSQL says where it is
        persist(run, 8, 8);
        redis.commands().del(meta);
        assertThat(feeds.behind(run)).isTrue();
        assertThat(seqs(feeds.log(run))).containsExactlyElementsOf(range(1, 8));
        persist(run, 9, 9);
        assertThat(feeds.behind(run)).as("a feed holding the run's end is not asked about").isFalse();
        assertThat(feeds.behind(UUID.randomUUID())).as("a run not cached is read in full when first used").isFalse();
    }

    @Test
    void aRunWithoutEventsIsNotCached() {
        UUID unknown = UUID.randomUUID();
        assertThat(feeds.log(unknown).size()).isZero();
        assertThat(feeds.offer(new LiveEntry(unknown, List.of(event(1))))).isFalse();
    }

    private UUID startedRun() {
        return TestWorkflows.runningRunRow(creating, jdbc);
    }

    private void persist(UUID run, long from, long to) {
        for (long seq = from; seq <= to; seq++) {
            LiveEvent event = event(seq);
            jdbc.sql("insert into event_log (run_id, seq, event_type, node_id, token_id, data, occurred_at) "
                            + "values (?, ?, ?, ?, ?, ?::json, ?)")
                    .params(run, seq, event.type(), event.node(), event.token(), event.data().toString(),
                            Timestamp.from(Instant.ofEpochMilli(event.at()))).update();
        }
    }

    /** Event 1 starts the run, event 8 completes it; the others are steps of node A. */
    private static LiveEvent event(long seq) {
        if (seq == 8) {
            return LiveEvent.of(JSON.readTree("{\"seq\": 8, \"type\": \"run.completed\", \"at\": 1008, \"data\": {}}"));
        }
        return seq == 1 ? LiveEvent.of(JSON.readTree("{\"seq\": 1, \"type\": \"run.started\", \"at\": 1000, "
                + "\"data\": {\"workflow_id\": \"" + UUID.randomUUID() + "\", \"workflow_version\": 1}}"))
                : LiveEvent.of(JSON.readTree("{\"seq\": " + seq + ", \"type\": \"node.started\", \"at\": " + (1000 + seq)
                + ", \"node\": \"A\", \"token\": \"t" + seq + "\", \"data\": {\"iteration\": 0, \"worker\": \"w\"}}"));
    }

    private static String json(LiveEvent event) {
        return event.toJson(event.seq()).toString();
    }

    private static List<Long> seqs(RunLog log) {
        return log.events().stream().map(LiveEvent::seq).toList();
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }
}
