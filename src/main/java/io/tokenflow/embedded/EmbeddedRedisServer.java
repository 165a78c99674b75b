package io.tokenflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import redis.embedded.RedisServer;

/** A real Redis server (embedded binary) with an append-only file, so run state survives a restart. */
final class EmbeddedRedisServer {

    static final String HOST = "127.0.0.1";
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
            RedisServer server = RedisServer.newRedisServer()
                    .port(port)
                    .setting("bind " + HOST)
                    .setting("dir " + dataDirectory)
                    .setting("pidfile " + pidFile)
                    .setting("appendonly yes")
                    // rewrite the append-only file after 512 MB of growth, not 64 MB: under load each rewrite (a fork
                    // writing the whole dataset) came every few seconds and cost a tenth of a core; and write it
                    // uncompressed (LZF compression was 40 % of a rewrite's CPU time)
                    .setting("auto-aof-rewrite-min-size 512mb")
                    .setting("rdbcompression no")
                    .setting("save \"\"")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(server), "tokenflow-redis-stop"));
            return new EmbeddedRedisServer(port);
        } catch (IOException e) {
            throw new UncheckedIOException("Expected to start embedded Redis in " + dataDirectory
                    + ", but it failed; set SPRING_DATA_REDIS_HOST to use an external server", e);
        }
    }

    private static void stopQuietly(RedisServer server) {
        try {
            server.stop();
        } catch (IOException ignored) {
            // the JVM is exiting; the process dies with it
        }
    }

    int port() {
        return port;
    }
}
