package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.lettuce.core.Range;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.workers.WorkerHarness;
import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * With completions routed in-process (the default), a built-in worker asks for a run's status before a task with side
 * effects only (seen on Redis's {@code MONITOR}): a side-effect-free task of a cancelled run runs, and the routing step
 * refuses its completion (silently: the run ended, it is not a bad signal); a task with side effects of a cancelled run
 * never runs. Both tokens are acknowledged and deleted. On a Redis Cluster every node's {@code MONITOR} is watched.
 */
@IntegrationTest
@Import(LocalTaskRunStatusIntegrationTests.Probes.class)
class LocalTaskRunStatusIntegrationTests {

    private static final Queue<String> CALLS = new ConcurrentLinkedQueue<>();

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired RunTerminator terminator;
    @Autowired LocalCompletions local;
    @Autowired LettuceConnectionFactory factory;

    @Test
    void aSideEffectFreeTaskOfACancelledRunRunsAndIsRefusedWhileATaskWithSideEffectsNeverRuns() {
        assertThat(local.enabled()).as("completions routed in-process").isTrue();
        EngineHarness engine = new EngineHarness(creating, starting, jdbc);
        UUID pureRun = cancelledRun(engine);
        UUID effectRun = cancelledRun(engine);
        int events = engine.eventTypes(pureRun).size();

        String pure = WorkerHarness.newTokenId();
        String effect = WorkerHarness.newTokenId();
        List<String> commands;
        List<RedisMonitor> monitors = servers().stream().map(server -> new RedisMonitor(server.getHost(),
                server.getPort())).toList();
        try {
            String pureEntry = send(pureRun, pure, "pure-probe");
            String effectEntry = send(effectRun, effect, "effect-probe");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> gone(pureRun, pureEntry) && gone(effectRun, effectEntry));
            commands = monitors.stream().flatMap(monitor -> monitor.lines().stream()).toList();
        } finally {
            monitors.forEach(RedisMonitor::close);
        }

        assertThat(CALLS).containsExactly(pure);
        assertThat(statusAsks(commands, effectRun)).as("status asks for the run of the task with side effects")
                .isEqualTo(1);
        assertThat(statusAsks(commands, pureRun)).as("status asks for the run of the side-effect-free task").isZero();
        assertThat(jdbc.sql("select count(*) from rejected_signals where token_id in (:pure, :effect)")
                .param("pure", pure).param("effect", effect).query(Long.class).single()).isZero();
        assertThat(engine.eventTypes(pureRun)).hasSize(events);
        assertThat(engine.status(pureRun)).isEqualTo("CANCELLED");
    }

    /** The Redis servers commands go to: the one server, or the cluster nodes configured (all its masters here). */
    private List<RedisNode> servers() {
        if (factory.isClusterAware()) {
            return List.copyOf(factory.getClusterConfiguration().getClusterNodes());
        }
        return List.of(new RedisNode(factory.getHostName(), factory.getPort()));
    }

    /** A diamond run cancelled while it waits at A (its tasks are of a type no built-in worker takes). */
    private UUID cancelledRun(EngineHarness engine) {
        UUID run = engine.start(engine.workflow("engine/diamond"), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(redis.commands().get(keys.run(run).counter())));
        assertThat(terminator.cancel(run, "operator")).isTrue();
        engine.awaitStatus(run, "CANCELLED");
        return run;
    }

    private boolean gone(UUID run, String entry) {
        return redis.commands().xrange(keys.taskStream("function", keys.shardOf(run)), Range.create(entry, entry))
                .isEmpty();
    }

    /** {@code HGET <meta> status} sent by a client (not from within a Lua step) for the run. */
    private long statusAsks(List<String> commands, UUID run) {
        String ask = "\"HGET\" \"" + keys.run(run).meta() + "\" \"status\"";
        return commands.stream().filter(line -> line.contains(ask) && !line.contains(" lua]")).count();
    }

    /** A token for node B of the run, as the coordinator would have sent it, calling {@code function}. */
    private String send(UUID run, String token, String function) {
        Map<String, String> fields = WorkerHarness.token(token, run, "function", "{}",
                "{\"function\":\"" + function + "\"}");
        fields.put("node", "B");
        return redis.commands().xadd(keys.taskStream("function", keys.shardOf(run)), fields);
    }

    /** Redis's {@code MONITOR} on a socket of its own: every command Redis runs, a line each, from now on. */
    private static final class RedisMonitor implements AutoCloseable {

        private final Socket socket;
        private final BufferedReader in;

        RedisMonitor(String host, int port) {
            try {
                socket = new Socket(host, port);
                socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
                in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                assertThat(in.readLine()).isEqualTo("+OK");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * The lines that came so far, read for another half second (other parts of the app keep sending commands,
         * so there is no quiet moment to wait for).
         */
        List<String> lines() {
            List<String> lines = new ArrayList<>();
            long until = System.nanoTime() + Duration.ofMillis(500).toNanos();
            try {
                socket.setSoTimeout(100);
                while (System.nanoTime() - until < 0) {
                    try {
                        String line = in.readLine();
                        if (line == null) {
                            break;
                        }
                        lines.add(line);
                    } catch (SocketTimeoutException e) {
                        // nothing for a moment; look at the clock again
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return lines;
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Probes {

        @Bean
        WorkflowFunction pureProbe() {
            return probe("pure-probe", true);
        }

        @Bean
        WorkflowFunction effectProbe() {
            return probe("effect-probe", false);
        }

        private static WorkflowFunction probe(String name, boolean sideEffectFree) {
            return new WorkflowFunction() {
                @Override
                public String name() {
                    return name;
                }

                @Override
                public JsonNode apply(FunctionCall call) {
                    CALLS.add(call.tokenId());
                    return JsonNodeFactory.instance.objectNode();
                }

                @Override
                public boolean sideEffectFree() {
                    return sideEffectFree;
                }
            };
        }
    }
}
