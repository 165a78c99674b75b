package io.tokenflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import redis.embedded.core.ExecutableProvider;

/**
 * A real Redis server (the binary the embedded-redis library ships) with an append-only file, so run state survives a
 * restart. Its output goes to {@code redis.log} in its data folder; it is stopped as the JVM exits, after the
 * application contexts ({@link ShutdownSequence}).
 */
final class EmbeddedRedisServer {

    static final String HOST = "127.0.0.1";
    private static final Duration START_WAIT = Duration.ofSeconds(60);
    /** util-linux's setsid (Linux); it execs Redis in place, so the process started is Redis itself. */
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Map<Path, EmbeddedRedisServer> RUNNING = new HashMap<>();

    private final int port;

    private EmbeddedRedisServer(int port) {
        this.port = port;
    }

    static synchronized EmbeddedRedisServer startOnce(Path dataDirectory) {
        return RUNNING.computeIfAbsent(dataDirectory, EmbeddedRedisServer::start);
    }

    private static EmbeddedRedisServer start(Path dataDirectory) {
        int port = FreePort.find();
        try {
            Files.createDirectories(dataDirectory);
            Path pidFile = dataDirectory.resolve("redis.pid");
            LeftoverServer.stop(pidFile, "redis");
            List<String> command = new ArrayList<>();
            if (Files.isExecutable(SETSID)) {
                // a session of its own: Ctrl-C in the terminal signals the whole foreground process group, and Redis
                // would quit at once instead of after the application (PostgreSQL's pg_ctl does the same for it)
                command.add(SETSID.toString());
            }
            command.addAll(List.of(ExecutableProvider.newJarResourceProvider().get().getAbsolutePath(),
                    "--port", Integer.toString(port), "--bind", HOST, "--dir", dataDirectory.toString(),
                    "--pidfile", pidFile.toString(), "--appendonly", "yes",
                    // rewrite the append-only file after 512 MB of growth, not 64 MB: under load each rewrite (a fork
                    // writing the whole dataset) came every few seconds and cost a tenth of a core; and write it
                    // uncompressed (LZF compression was 40 % of a rewrite's CPU time)
                    "--auto-aof-rewrite-min-size", "512mb", "--rdbcompression", "no", "--save", ""));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dataDirectory.resolve("redis.log").toFile())
                    .start();
            ShutdownSequence.atExit("stop embedded Redis", () -> LeftoverServer.stop(process.toHandle()));
            awaitReady(process, port, dataDirectory);
            return new EmbeddedRedisServer(port);
        } catch (IOException e) {
            throw new UncheckedIOException("Expected to start embedded Redis in " + dataDirectory
                    + ", but it failed; set SPRING_DATA_REDIS_HOST to use an external server", e);
        }
    }

    /** Waits until the server answers PING; it loads its append-only file first, which may take a while. */
    private static void awaitReady(Process process, int port, Path dataDirectory) throws IOException {
        long deadline = System.nanoTime() + START_WAIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IOException("Redis exited with status " + process.exitValue() + "; see "
                        + dataDirectory.resolve("redis.log"));
            }
            if (answersPing(port)) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while waiting for Redis to start", e);
            }
        }
        process.destroyForcibly();
        throw new IOException("Redis did not answer within " + START_WAIT + "; see " + dataDirectory.resolve("redis.log"));
    }

    private static boolean answersPing(int port) {
        try (Socket socket = new Socket(HOST, port)) {
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = new byte[7];
            int read = socket.getInputStream().readNBytes(reply, 0, reply.length);
            return new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    int port() {
        return port;
    }
}
