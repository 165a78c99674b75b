package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application as a newcomer runs it (embedded PostgreSQL and Redis) stops cleanly on SIGTERM (as {@code docker
 * stop} or a service manager sends it): the servers stop only after the application has, so no worker or supervisor
 * loses its connection on the way out, and each server shuts down in order (Redis flushes its append-only file) rather
 * than being killed. Ctrl-C in a terminal signals the whole foreground process group; the servers run in sessions of
 * their own, so it reaches only the application, which then stops them the same way.
 */
class EmbeddedShutdownE2ETests {

    @TempDir Path data;
    private Process app;

    @AfterEach
    void killLeftovers() {
        if (app != null) {
            app.descendants().forEach(ProcessHandle::destroyForcibly);
            app.destroyForcibly();
        }
    }

    @Test
    void stopsTheApplicationBeforeItsEmbeddedServers() throws Exception {
        int port = freePort();
        Path log = data.resolve("app.log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.tokenflow.TokenflowApplication",
                "--server.port=" + port, "--tokenflow.embedded.data-dir=" + data.resolve("servers"),
                "--spring.main.banner-mode=off")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // embedded servers even when this JVM's tests run against the machine's (SPRING_DATASOURCE_URL, ...)
        builder.environment().keySet().removeIf(name -> name.startsWith("SPRING_"));
        app = builder.start();
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> app.isAlive() && healthy(http, port) || !app.isAlive());
        assertThat(app.isAlive()).as("the application started; its log: %s", log).isTrue();
        List<ProcessHandle> servers = app.descendants().toList();
        assertThat(servers).as("the embedded servers are the application's child processes").isNotEmpty();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            ProcessHandle redis = servers.stream().filter(server -> server.info().command().orElse("")
                    .contains("redis")).findFirst().orElseThrow();
            assertThat(session(redis.pid())).as("Redis in a session of its own: Ctrl-C in the terminal, which "
                    + "signals the application's whole process group, does not stop it before the application")
                    .isNotEqualTo(session(app.pid()));
        }

        app.destroy();

        assertThat(app.waitFor(60, TimeUnit.SECONDS)).as("the application stopped within a minute").isTrue();
        String output = Files.readString(log);
        assertThat(output).as("the application's log").doesNotContain("Cannot reconnect", "Connection refused",
                " ERROR ");
        assertThat(servers).as("no embedded server outlives the application").noneMatch(ProcessHandle::isAlive);
        assertThat(Files.readString(data.resolve("servers/redis/redis.log"))).contains("ready to exit");
        assertThat(data.resolve("servers/redis/redis.pid")).as("removed by Redis as it shut down").doesNotExist();
        assertThat(data.resolve("servers/postgres/postmaster.pid")).as("removed by PostgreSQL as it shut down")
                .doesNotExist();
    }

    private static boolean healthy(HttpClient http, int port) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("\"UP\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The session id of a process (Linux: the fourth field after the command in /proc/PID/stat). */
    private static String session(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3];
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
