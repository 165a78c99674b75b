package io.tokenflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/** A real PostgreSQL server (zonky binaries) whose data directory survives restarts. */
final class EmbeddedPostgresServer {

    static final String USER = "postgres";
    private static final Map<Path, EmbeddedPostgresServer> RUNNING = new HashMap<>();

    private final EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static synchronized EmbeddedPostgresServer startOnce(Path dataDirectory) {
        return RUNNING.computeIfAbsent(dataDirectory, EmbeddedPostgresServer::start);
    }

    private static EmbeddedPostgresServer start(Path dataDirectory) {
        try {
            Files.createDirectories(dataDirectory);
            removeStalePidFile(dataDirectory);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(FreePort.find())
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    // the event log writes steadily: fewer checkpoints mean fewer full-page images in the WAL
                    .setServerConfig("max_wal_size", "4GB")
                    .setServerConfig("checkpoint_timeout", "15min")
                    .setServerConfig("shared_buffers", "256MB")
                    // stopped after the application contexts, not in a shutdown hook of its own beside theirs
                    .setRegisterShutdownHook(false)
                    .start();
            ShutdownSequence.atExit("stop embedded PostgreSQL", postgres::close);
            return new EmbeddedPostgresServer(postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("Expected to start embedded PostgreSQL in " + dataDirectory
                    + ", but it failed; set SPRING_DATASOURCE_URL to use an external server", e);
        }
    }

    /**
     * An application killed with -9 leaves its PostgreSQL running (orphaned) or a stale pid file; either would
     * stop this start. Only a process that is a PostgreSQL server for this very data directory is stopped.
     */
    private static void removeStalePidFile(Path dataDirectory) throws IOException {
        LeftoverServer.stop(dataDirectory.resolve("postmaster.pid"), "postgres");
    }

    String jdbcUrl() {
        return postgres.getJdbcUrl(USER, "postgres");
    }
}
