package io.tokenflow.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.springframework.core.env.Environment;

/**
 * Engines (coordinator, workers, supervisor) in child JVMs of their own, on the PostgreSQL and Redis of the test's
 * JVM, so that a test can kill one with SIGKILL ({@link Process#destroyForcibly()}) and start another.
 */
final class EngineProcesses {

    private final Environment environment;
    private final List<Process> engines = new ArrayList<>();

    EngineProcesses(Environment environment) {
        this.environment = environment;
    }

    /** Starts an engine with claim timeouts of seconds (a killed engine's pending entries are taken over quickly). */
    Process start(String name, String... settings) throws IOException {
        Path log = Files.createTempFile("tokenflow-engine-" + name + "-", ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(), "-cp", System.getProperty("java.class.path"), "io.tokenflow.TokenflowApplication",
                "--server.port=0", "--tokenflow.embedded.enabled=false",
                "--tokenflow.roles=coordinator,supervisor,workers",
                "--spring.datasource.url=" + environment.getProperty("spring.datasource.url"),
                "--spring.datasource.username=" + environment.getProperty("spring.datasource.username", ""),
                "--spring.datasource.password=" + environment.getProperty("spring.datasource.password", ""),
                "--spring.data.redis.host=" + environment.getProperty("spring.data.redis.host", "127.0.0.1"),
                "--spring.data.redis.port=" + environment.getProperty("spring.data.redis.port", "6379"),
                "--spring.data.redis.database=" + environment.getProperty("spring.data.redis.database", "0"),
                "--tokenflow.coordinator.claim-idle=2s", "--tokenflow.coordinator.claim-interval=1s",
                "--tokenflow.workers.claim-idle=2s", "--tokenflow.workers.claim-interval=1s",
                "--tokenflow.supervisor.claim-idle=2s", "--spring.main.banner-mode=off"));
        if (Arrays.stream(settings).noneMatch(setting -> setting.startsWith("--tokenflow.supervisor.shard-lease="))) {
            // a killed engine's shards are free again soon
            command.add("--tokenflow.supervisor.shard-lease=2s");
        }
        command.addAll(List.of(settings));
        Process engine = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        engines.add(engine);
        System.out.println("Engine " + name + " started (pid " + engine.pid() + "), log: " + log + File.separator);
        return engine;
    }

    /**
     * Stops every engine this started (call after each test): gracefully first, so that a supervisor gives its shard
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
    }
}
