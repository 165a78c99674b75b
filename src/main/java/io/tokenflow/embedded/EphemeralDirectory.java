package io.tokenflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** One temporary folder per JVM for ephemeral embedded servers, deleted when the JVM exits (after they stopped). */
final class EphemeralDirectory {

    private static Path directory;

    private EphemeralDirectory() {
    }

    static synchronized Path get() {
        if (directory == null) {
            try {
                directory = Files.createTempDirectory("tokenflow-embedded-");
            } catch (IOException e) {
                throw new UncheckedIOException("Expected to create a temporary folder for embedded servers", e);
            }
            Path created = directory;
            // registered before the servers that keep their data in it, so it runs after they stopped
            ShutdownSequence.atExit("delete " + created, () -> deleteQuietly(created));
        }
        return directory;
    }

    private static void deleteQuietly(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: the OS cleans its temp folder too
        }
    }
}
