package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lettuce.core.Consumer;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.support.OutsiderRedis;

/**
 * A team's external workers confined by Redis ACLs on a Redis shared with other teams and tenants, as
 * docs/worker-protocol.md §7 says: a Redis user given the rules of its node type ({@code workerAcl} of
 * {@code GET /api/v1/node-types/{name}}) takes, completes and acknowledges that type's tokens, and is refused
 * (NOPERM) another type's tokens, the completion signals of everyone, and the runs' state. On a cluster the user is
 * made on every master, as Redis keeps ACL users per node. Write-only key permissions came with Redis 7.0: on an older
 * Redis (the embedded one is 6.2) there is nothing to show, and the test says so and is skipped; CI runs it on the
 * machine's Redis 7 and on the Redis Cluster.
 */
class WorkerAclIntegrationTests extends OperatorTests {

    @Autowired RedisKeys keys;

    @Test
    void aWorkerUserOfOneNodeTypeDoesItsWorkAndReadsNothingElse() throws Exception {
        int major = Integer.parseInt(serverVersion().split("\\.")[0]);
        assumeTrue(major >= 7, "Expected Redis 7.0 or later for write-only key permissions (%W~), but this one is "
                + serverVersion());
        String ours = api.customType("acl");
        String theirs = api.customType("other");
        String rules = api.read(get("/api/v1/node-types/" + ours)).get("workerAcl").asString();
        String user = "workers-" + ours;
        String password = UUID.randomUUID().toString();
        OutsiderRedis.onEveryNode(environment, redis -> {
            CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("SETUSER").add(user).add("on")
                    .add(">" + password);
            for (String rule : rules.split(" ")) {
                args.add(rule);
            }
            redis.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), args);
        });
        UUID run = api.start(api.created("""
                {"name": "acl-%s", "nodes": [{"id": "work", "type": "%s"}], "edges": []}""".formatted(ours, ours)));
        UUID other = api.start(api.created("""
                {"name": "acl-%s", "nodes": [{"id": "work", "type": "%s"}], "edges": []}""".formatted(theirs, theirs)));
        int shards = keys.shards();
        try (OutsiderRedis confined = OutsiderRedis.connect(environment, user, password)) {
            ManualWorker worker = new ManualWorker(confined.commands(), ours, shards, api.key());
            StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
            assertThat(token.getBody()).containsEntry("run", run.toString());

            String theirStream = keys.taskStream(theirs, keys.shardOf(other));
            refused(() -> confined.commands().xreadgroup(Consumer.from(keys.workerGroup(theirs), "spy"),
                    XReadArgs.StreamOffset.lastConsumed(theirStream)));
            refused(() -> confined.commands().xrange(theirStream, Range.create("-", "+")));
            refused(() -> confined.commands().xrange(keys.completionsStream(keys.shardOf(run)),
                    Range.create("-", "+")));
            refused(() -> confined.commands().hgetall(keys.run(run).meta()));
            refused(() -> confined.commands().xadd(keys.taskStream(theirs, keys.shardOf(other)), "forged", "1"));

            worker.complete(token, "{\"confined\": true}");
            api.awaitStatus(run, "COMPLETED");
            assertThat(api.read(get("/api/v1/runs/" + run)).at("/outputs/work/confined").asBoolean()).isTrue();
            assertThat(api.read(get("/api/v1/runs/" + other)).get("status").asString()).isEqualTo("RUNNING");
        } finally {
            OutsiderRedis.onEveryNode(environment, redis -> redis.aclDeluser(user));
        }
    }

    private String serverVersion() {
        String info = api.redis().info("server");
        return info.lines().filter(line -> line.startsWith("redis_version:")).findFirst().orElseThrow()
                .substring("redis_version:".length()).strip();
    }

    private static void refused(Runnable command) {
        assertThatThrownBy(command::run).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("NOPERM");
    }
}
