package io.tokenflow.supervisor;

import static io.tokenflow.engine.replay.EventScript.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.engine.replay.EventScript;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RedisSettings;
import tools.jackson.databind.node.ArrayNode;

/**
 * One supervisor's loop over a shard no running supervisor reads (the app runs fewer shards, so this test alone decides
 * who reads what), with the real Redis stream, consumer group and PostgreSQL writer.
 */
@IntegrationTest
class ShardEventLoopIntegrationTests {

    private static final int SHARD = 7;

    private final RedisKeys keys = new RedisKeys(new RedisSettings(SHARD + 1));
    @Autowired RedisConnections redis;
    @Autowired LuaScripts scripts;
    @Autowired JdbcClient jdbc;
    @Autowired EventsEntries entries;
    @Autowired EventLogWriter writer;
    @Autowired PoisonIsolation isolation;
    @Autowired SupervisorSettings settings;

    private ShardEventLoop loop;
    private Thread thread;

    @AfterEach
    void stopLoop() throws InterruptedException {
        if (loop != null) {
            loop.stop();
            thread.join(settings.block().toMillis() + 5_000);
        }
        redis.commands().del(keys.eventsStream(SHARD));
    }

    /**
     * An entry waits while another supervisor still writes its run's earlier events; an entry whose earlier events
     * never come (here: of a run that never started) has waited long. The long wait must not set the pace for the
     * short one: once the earlier events are in, the waiting entry follows them within moments, not after the
     * seconds-long delay the hopeless entry is retried with.
     */
    @Test
    void anEntryWaitingForAnotherSupervisorIsNotHeldUpByAnEntryThatWaitsInVain() {
        String stream = keys.eventsStream(SHARD);
        redis.commands().del(stream);
        StoredRuns stored = new StoredRuns(jdbc);
        long aMinuteAgo = System.currentTimeMillis() - 60_000;
        redis.commands().xadd(stream, new XAddArgs().id(aMinuteAgo + "-0"), Map.of("run", UUID.randomUUID()
                .toString(), "events", events().started("A", "tA", "w-a").json().toString()));
        start();
        // long enough for retries of the hopeless entry to back off to seconds
        pauseFor(Duration.ofMillis(3_500));

        UUID run = UUID.randomUUID();
        List<ArrayNode> steps = run(stored.workflow()).entries();
        redis.commands().xadd(stream, Map.of("run", run.toString(), "events", steps.get(1).toString()));
        await().atMost(Duration.ofSeconds(10)).until(() -> redis.commands().xpending(stream,
                RedisKeys.SUPERVISORS_GROUP).getCount() == 2);
        await().during(settings.block().multipliedBy(2)).atMost(Duration.ofSeconds(5))
                .until(() -> stored.eventLog(run).isEmpty());
        // the first step, as another supervisor writes it
        writer.write(SHARD, entries.read(List.of(new StreamMessage<>(stream, "1-0", Map.of("run", run.toString(),
                "events", steps.get(0).toString())))).entries());

        await().atMost(Duration.ofSeconds(2)).until(() -> stored.eventLog(run).size() == 3);
        assertThat(redis.commands().xpending(stream, RedisKeys.SUPERVISORS_GROUP).getCount()).isEqualTo(1);
    }

    /**
     * After a read that did not fill a batch, the next read waits for the linger: entries arriving one by one in the
     * meantime go to PostgreSQL together, in one transaction (their rows share {@code recorded_at}, the transaction's
     * start). The first entry after a quiet spell is read at once.
     */
    @Test
    void entriesArrivingDuringTheLingerAreWrittenInOneTransaction() {
        String stream = keys.eventsStream(SHARD);
        redis.commands().del(stream);
        StoredRuns stored = new StoredRuns(jdbc);
        Duration linger = Duration.ofSeconds(1);
        start(new SupervisorSettings(true, settings.batchSize(), settings.block(), linger,
                settings.inactivityTimeout(), settings.timeoutCheckInterval(), settings.snapshotInterval(),
                settings.claimIdle(), settings.finishedRunRetention(), settings.recoveryCheckInterval(),
                settings.shardLease()));
        pauseFor(settings.block().multipliedBy(2));

        UUID first = UUID.randomUUID();
        Instant firstAdded = Instant.now();
        addFirstStep(stream, first, stored);
        await().atMost(linger.dividedBy(2)).until(() -> !stored.eventLog(first).isEmpty());
        List<UUID> following = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            UUID run = UUID.randomUUID();
            following.add(run);
            addFirstStep(stream, run, stored);
            pauseFor(Duration.ofMillis(50));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> following.stream()
                .noneMatch(run -> stored.eventLog(run).isEmpty()));

        List<Instant> transactions = jdbc.sql("select distinct recorded_at from event_log "
                + "where run_id in (:runs)").param("runs", following).query(Instant.class).list();
        assertThat(transactions).hasSize(1);
        // the read after the one that found the first entry waits out the linger; measured from when the first entry
        // was added (its read came after that), not from its recorded_at: that is its write's transaction start, which
        // on a slow machine came more than 200 ms after the read the linger is counted from
        assertThat(Duration.between(firstAdded, transactions.get(0)))
                .isGreaterThanOrEqualTo(linger.minusMillis(200));
    }

    private void addFirstStep(String stream, UUID run, StoredRuns stored) {
        redis.commands().xadd(stream, Map.of("run", run.toString(), "events",
                run(stored.workflow()).entries().get(0).toString()));
    }

    private static EventScript run(UUID workflow) {
        return events().runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).then()
                .started("A", "tA", "w-a");
    }

    private void start() {
        start(settings);
    }

    private void start(SupervisorSettings settings) {
        ShardEvents events = new ShardEvents(redis.dedicated().sync(), keys, SHARD, "loop-under-test", settings,
                scripts.forgetRuns());
        loop = new ShardEventLoop(events, entries, isolation, settings);
        thread = new Thread(loop, "shard-event-loop-under-test");
        thread.setDaemon(true);
        thread.start();
    }

    private static void pauseFor(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
