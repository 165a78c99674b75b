package io.tokenflow.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Node worker SDK in {@code sdk/node}, for the tests that run it: its dependencies installed once from its
 * {@code package-lock.json} ({@code npm ci}, when {@code node_modules} is missing), and commands run in its folder.
 * Needs {@code node} and {@code npm} on the path ({@code .ci/run} installs them on a fresh machine).
 */
public final class NodeSdk {

    public static final Path FOLDER = Path.of("sdk/node");

    private NodeSdk() {
    }

    /** Installs the SDK's dependencies unless they are there. */
    public static synchronized void ensureInstalled() throws IOException, InterruptedException {
        if (!Files.isDirectory(FOLDER.resolve("node_modules"))) {
            Result installed = run(List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
            if (installed.exitCode() != 0) {
                throw new IllegalStateException("Expected npm ci in " + FOLDER + " to succeed, but it exited with "
                        + installed.exitCode() + ":\n" + installed.output());
            }
        }
    }

    /**
     * Runs a command in the SDK's folder, waiting at most {@code seconds}; its exit code and output. On time-out the
     * command and every process it started are killed, and the error shows what it printed until then.
     */
    public static Result run(List<String> command, long seconds) throws IOException, InterruptedException {
        Path log = Files.createTempFile("node-sdk-", ".log");
        Process process = new ProcessBuilder(command).directory(FOLDER.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException("Expected " + String.join(" ", command) + " to finish within " + seconds
                    + " s, but it did not:\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /** A finished command. */
    public record Result(int exitCode, String output) {
    }
}
