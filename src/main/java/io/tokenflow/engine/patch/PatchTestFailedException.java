package io.tokenflow.engine.patch;

/**
 * A "test" operation did not hold: the value at its path differs from the expected value, or
 * there is no value at that path.
 */
public final class PatchTestFailedException extends PatchException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; see {@link PatchException} for the meaning of the arguments. */
    public PatchTestFailedException(String message, int operationIndex, String pointer) {
        super(message, operationIndex, pointer, null);
    }

    /** Creates the exception with an underlying cause. */
    public PatchTestFailedException(String message, int operationIndex, String pointer, Throwable cause) {
        super(message, operationIndex, pointer, cause);
    }
}
