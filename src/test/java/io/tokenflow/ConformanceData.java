package io.tokenflow;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds a folder of the public conformance suites in {@code shared/conformance}: from the system property
 * {@value #DIRECTORY_PROPERTY} (set by the build to {@code ../shared/conformance}), else by searching upwards from
 * the working directory. A missing suite fails the test; it is never skipped silently.
 */
public final class ConformanceData {

    public static final String DIRECTORY_PROPERTY = "tokenflow.conformance.dir";

    private ConformanceData() {
    }

    /**
     * @param suite    the suite's folder under shared/conformance, e.g. {@code cel}
     * @param landmark a file or folder the suite folder must hold, e.g. {@code cel-simple.json}
     */
    public static Path folder(String suite, String landmark) {
        String configured = System.getProperty(DIRECTORY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path base = Path.of(configured).toAbsolutePath();
            Path folder = Files.exists(base.resolve(landmark)) ? base : base.resolve(suite);
            return require(folder, landmark, "-D" + DIRECTORY_PROPERTY + "=" + configured);
        }
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path folder = dir.resolve("shared/conformance").resolve(suite);
            if (Files.isDirectory(folder)) {
                return require(folder, landmark, "search upwards from " + start);
            }
        }
        throw new AssertionError("Expected the " + suite + " conformance suite in shared/conformance/" + suite
                + " next to the project (searched upwards from " + start + ") or in -D" + DIRECTORY_PROPERTY
                + ", but it was not found");
    }

    private static Path require(Path folder, String landmark, String source) {
        if (!Files.exists(folder.resolve(landmark))) {
            throw new AssertionError("Expected " + folder.resolve(landmark) + " (from " + source
                    + "), but there is no such file");
        }
        return folder;
    }
}
