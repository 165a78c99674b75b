package io.tokenflow.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.core.env.Environment;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Engines (coordinator, workers, supervisor) in child JVMs of their own, on the PostgreSQL and Redis of the test's
 * JVM, so that a test can kill one with SIGKILL ({@link Process#destroyForcibly()}) and start another. A JUnit
 * extension ({@code @RegisterExtension final EngineProcesses engines = new EngineProcesses();}): it reads the test's
 * Spring environment before each test and stops the engines it started after it.
 */
final class EngineProcesses implements BeforeEachCallback, AfterEachCallback {

    private final List<Process> engines = new ArrayList<>();
    private final Map<Process, Path> logs = new HashMap<>();
    private Environment environment;

    @Override
    public void beforeEach(ExtensionContext context) {
        environment = SpringExtension.getApplicationContext(context).getEnvironment();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        killAll();
    }

    /**
     * Starts an engine with claim timeouts of seconds (a killed engine's pending entries are taken over quickly), on
     * this JVM's PostgreSQL and Redis (or Redis Cluster) and shard count. By default with the coordinator, supervisor
     * and workers roles on a random port; {@code settings} (command-line arguments) may give others.
     */
    Process start(String name, String... settings) throws IOException {
        Path log = Files.createTempFile("tokenflow-engine-" + name + "-", ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(), "-cp", System.getProperty("java.class.path"), "io.tokenflow.TokenflowApplication",
                "--tokenflow.embedded.enabled=false",
                "--spring.datasource.url=" + environment.getProperty("spring.datasource.url"),
                "--spring.datasource.username=" + environment.getProperty("spring.datasource.username", ""),
                "--spring.datasource.password=" + environment.getProperty("spring.datasource.password", ""),
                "--tokenflow.coordinator.claim-idle=2s", "--tokenflow.coordinator.claim-interval=1s",
                "--tokenflow.workers.claim-idle=2s", "--tokenflow.workers.claim-interval=1s",
                "--tokenflow.supervisor.claim-idle=2s", "--spring.main.banner-mode=off"));
        String clusterNodes = environment.getProperty("spring.data.redis.cluster.nodes");
        if (clusterNodes != null && !clusterNodes.isBlank()) {
            command.add("--spring.data.redis.cluster.nodes=" + clusterNodes);
        } else {
            command.addAll(List.of(
                    "--spring.data.redis.host=" + environment.getProperty("spring.data.redis.host", "127.0.0.1"),
                    "--spring.data.redis.port=" + environment.getProperty("spring.data.redis.port", "6379"),
                    "--spring.data.redis.database=" + environment.getProperty("spring.data.redis.database", "0")));
        }
        // a setting given twice on the command line would become a list of both: defaults only where not given
        defaultUnlessGiven(command, settings, "--tokenflow.roles=", "coordinator,supervisor,workers");
        defaultUnlessGiven(command, settings, "--server.port=", "0");
        defaultUnlessGiven(command, settings, "--tokenflow.redis.shards=",
                environment.getProperty("tokenflow.redis.shards", "1"));
        // a killed engine's shards are free again soon
        defaultUnlessGiven(command, settings, "--tokenflow.supervisor.shard-lease=", "2s");
        command.addAll(List.of(settings));
        Process engine = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        engines.add(engine);
        logs.put(engine, log);
        System.out.println("Engine " + name + " started (pid " + engine.pid() + "), log: " + log + File.separator);
        return engine;
    }

    /** The file an engine this started writes its output to. */
    Path logOf(Process engine) {
        return logs.get(engine);
    }

    private static void defaultUnlessGiven(List<String> command, String[] settings, String prefix, String value) {
        if (Arrays.stream(settings).noneMatch(setting -> setting.startsWith(prefix))) {
            command.add(prefix + value);
        }
    }

    /**
     * Stops every engine this started (after each test): gracefully first, so that a supervisor gives its shard
     * leases up at once instead of leaving them to run out under the next test, then by force.
     */
    void killAll() {
        engines.forEach(Process::destroy);
        for (Process engine : engines) {
            try {
                if (!engine.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
                    engine.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                engine.destroyForcibly();
            }
        }
        engines.clear();
        logs.clear();
    }
}
