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

    /** Runs a command in the SDK's folder, waiting at most {@code seconds}; its exit code and output. */
    public static Result run(List<String> command, long seconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(FOLDER.toFile()).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                output.append("(output lost: ").append(e.getMessage()).append(')');
            }
        });
        reader.start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            reader.join(5_000);
            throw new IllegalStateException("Expected " + String.join(" ", command) + " to finish within " + seconds
                    + " s, but it did not:\n" + output);
        }
        reader.join(5_000);
        return new Result(process.exitValue(), output.toString());
    }

    /** A finished command. */
    public record Result(int exitCode, String output) {
    }
}
