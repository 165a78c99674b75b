package io.tokenflow.coordinator;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

import io.tokenflow.IntegrationTest;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.support.SigningKey;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.support.OutsiderRedis;

/**
 * A coordinator that died holding completions (read, never acknowledged) has them taken over by the others, even when
 * more entries than one takeover takes at a time stand before them and fail every time they are handled (here:
 * completions of a run whose workflow is gone). One {@code XAUTOCLAIM} looks at no more than ten times its count of
 * pending entries (here 4, so 40); taking over always from the start of the pending list, the others took those same
 * failing entries again and again and never reached the dead one's.
 */
@IntegrationTest
@TestPropertySource(properties = {"tokenflow.coordinator.claim-idle=1s", "tokenflow.coordinator.claim-interval=200ms",
        "tokenflow.coordinator.batch-size=4"})
class AbandonedCompletionsIntegrationTests {

    private static final int FAILING = 100;

    /** Adds the completions and reads every entry not yet delivered as a consumer that then dies, in one step. */
    private static final String ADD_AND_ABANDON = """
            local ids = {}
            local i = 2
            while i <= #ARGV do
              local count = tonumber(ARGV[i])
              ids[#ids + 1] = redis.call('XADD', KEYS[1], '*', unpack(ARGV, i + 1, i + count))
              i = i + count + 1
            end
            redis.call('XREADGROUP', 'GROUP', ARGV[1], 'dead-coordinator', 'COUNT', 10000, 'STREAMS', KEYS[1], '>')
            return ids""";

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired WorkerKeys workerKeys;

    @Test
    void aDeadCoordinatorsCompletionIsTakenOverBehindEntriesThatKeepFailing() {
        EngineHarness engine = new EngineHarness(creating, starting, jdbc);
        ManualWorker worker = new ManualWorker(redis.commands(), "default", keys.shards(), SigningKey.of(workerKeys));
        UUID run = engine.start(engine.workflow("engine/diamond"), null);
        StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
        String completions = OutsiderRedis.completionsStreamOf(token);
        int shard = keys.shardOf(run);
        UUID orphan = runOnShard(shard);
        redis.commands().hset(keys.run(orphan, shard).meta(), Map.of("status", "RUNNING", "seq", "1",
                "workflow", UUID.randomUUID().toString(), "version", "1", "revision", "0", "input", "{}"));
        List<String> args = new ArrayList<>(List.of(RedisKeys.COORDINATORS_GROUP));
        for (int i = 0; i < FAILING; i++) { // more than one takeover looks at (ten times the batch size)
            addCompletion(args, "t-orphan-" + i, orphan);
        }
        addCompletion(args, token.getBody().get("token"), run);
        List<String> added = redis.commands().eval(ADD_AND_ABANDON, ScriptOutputType.MULTI,
                new String[] {completions}, args.toArray(String[]::new));
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(engine.nodeStatuses(run).get("A")));
        } finally {
            String[] failing = added.subList(0, FAILING).toArray(String[]::new);
            redis.commands().xack(completions, RedisKeys.COORDINATORS_GROUP, failing);
            redis.commands().xdel(completions, failing);
            redis.commands().del(keys.run(orphan, shard).meta());
        }
    }

    /** A signed completion of node A, as the field count and then field/value pairs. */
    private void addCompletion(List<String> args, String token, UUID run) {
        Map<String, String> fields = SigningKey.of(workerKeys).signed(Map.of("token", token, "run", run.toString(),
                "node", "A", "status", "completed", "output", "{}", "worker", "manual"));
        args.add(Integer.toString(fields.size() * 2));
        fields.forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
    }

    private UUID runOnShard(int shard) {
        UUID id = UUID.randomUUID();
        while (keys.shardOf(id) != shard) {
            id = UUID.randomUUID();
        }
        return id;
    }
}
