package io.tokenflow.engine.patch;

/**
 * Internal signal from {@link TreeLocator}: a pointer cannot be resolved. The reason is phrased to
 * follow "but", e.g. {@code "/nodes" has only 3 elements}; the executor turns it into a {@link PatchException}.
 */
final class UnreachableLocation extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UnreachableLocation(String reason) {
        super(reason, null, false, false);
    }

    String reason() {
        return getMessage();
    }
}
