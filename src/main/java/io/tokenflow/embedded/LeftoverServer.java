package io.tokenflow.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stops embedded server processes: one left running by an application that was killed, found through its pid file,
 * and our own as the JVM exits.
 */
final class LeftoverServer {

    private static final Duration STOP_WAIT = Duration.ofSeconds(15);

    private LeftoverServer() {
    }

    static void stop(Path pidFile, String expectedCommand) throws IOException {
        if (!Files.exists(pidFile)) {
            return;
        }
        Optional<ProcessHandle> process = readPid(pidFile).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
        if (process.isPresent() && isCommand(process.get(), expectedCommand)) {
            stop(process.get());
        }
        Files.deleteIfExists(pidFile);
    }

    private static Optional<Long> readPid(Path pidFile) throws IOException {
        String firstLine = Files.readAllLines(pidFile).stream().findFirst().orElse("").trim();
        if (firstLine.isEmpty() || !firstLine.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(firstLine));
    }

    private static boolean isCommand(ProcessHandle process, String expectedCommand) {
        return process.info().command().map(c -> c.contains(expectedCommand)).orElse(false);
    }

    /**
     * Asks a server process to stop (SIGTERM: it shuts down in order) and waits for it; kills it when it has not
     * stopped within {@link #STOP_WAIT}.
     */
    static void stop(ProcessHandle process) {
        process.destroy();
        waitForExit(process);
    }

    private static void waitForExit(ProcessHandle process) {
        try {
            process.onExit().get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
            process.onExit().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
