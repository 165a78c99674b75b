package io.tokenflow.chaos;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The whole application (web, coordinator, workers, supervisor) in a child JVM on the suite's Redis and, through
 * its proxy, PostgreSQL, with one configured admin user; killed with SIGKILL and started again by the suite.
 */
final class AppProcess {

    static final String USER = "chaos";
    static final String PASSWORD = "chaos-monkey-password";

    private final String name;
    private final List<String> settings;
    private final int port;
    private final Path log;
    private Process process;

    AppProcess(String name, List<String> settings) {
        this.name = name;
        this.settings = List.copyOf(settings);
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
            this.log = Files.createTempFile("tokenflow-chaos-" + name + "-", ".log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** Starts the JVM and waits until its health answers UP; returns how long that took. */
    Duration start() {
        long began = System.nanoTime();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx768m", "-cp", classpath(), "io.tokenflow.TokenflowApplication",
                "--server.port=" + port, "--tokenflow.embedded.enabled=false", "--spring.main.banner-mode=off",
                "--tokenflow.security.users[0].username=" + USER, "--tokenflow.security.users[0].password=" + PASSWORD,
                "--tokenflow.security.users[0].roles=ADMIN,OPERATOR,DESIGNER,APPROVER",
                "--tokenflow.coordinator.claim-idle=3s", "--tokenflow.coordinator.claim-interval=1s",
                "--tokenflow.workers.claim-idle=3s", "--tokenflow.workers.claim-interval=1s",
                "--tokenflow.supervisor.claim-idle=3s", "--tokenflow.supervisor.recovery-check-interval=3s"));
        command.addAll(settings);
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            // the suite's servers only: SPRING_DATA_REDIS_DATABASE and the like of the caller's environment (CI's
            // second pass sets them) would otherwise reach the app past the arguments that do not name them
            builder.environment().keySet().removeIf(name -> name.startsWith("SPRING_"));
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long until = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < until) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Expected app " + name + " to start, but it exited; see " + log);
            }
            try {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/actuator/health")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers
                        .ofString());
                if (health.statusCode() == 200 && health.body().contains("UP")) {
                    return Duration.ofNanos(System.nanoTime() - began);
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Chaos.pause(250);
        }
        throw new IllegalStateException("Expected app " + name + " to be healthy within 180 s, but it was not; see "
                + log);
    }

    /** SIGKILL, as the OOM killer or a lost machine does. */
    void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The heap in use right after a full GC ({@code jcmd GC.run}, then {@code GC.heap_info}), in MB. */
    long heapAfterGcMegabytes() throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        new ProcessBuilder(jcmd, Long.toString(process.pid()), "GC.run").redirectErrorStream(true).start().waitFor();
        Process info = new ProcessBuilder(jcmd, Long.toString(process.pid()), "GC.heap_info").redirectErrorStream(true)
                .start();
        String text = new String(info.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        info.waitFor();
        java.util.regex.Matcher used = java.util.regex.Pattern.compile("used (\\d+)K").matcher(text);
        return used.find() ? Long.parseLong(used.group(1)) / 1024 : -1;
    }

    Path log() {
        return log;
    }

    /**
     * The classpath of this JVM; under {@code exec:java} (which runs the suite inside Maven's JVM) that of the class
     * loader the plugin made for the project.
     */
    private static String classpath() {
        String own = System.getProperty("java.class.path");
        if (own.contains("test-classes")) {
            return own;
        }
        Set<String> entries = new LinkedHashSet<>();
        for (ClassLoader loader = Thread.currentThread().getContextClassLoader(); loader != null;
             loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                for (URL url : urls.getURLs()) {
                    try {
                        entries.add(Path.of(url.toURI()).toString());
                    } catch (URISyntaxException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
