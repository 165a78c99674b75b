package io.tokenflow.engine.patch;

/**
 * The patch document is malformed: not an array, an operation that is not an object, an unknown
 * "op", a missing or wrongly typed member, bad JSON Pointer syntax, or too many operations.
 */
public final class InvalidPatchException extends PatchException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; see {@link PatchException} for the meaning of the arguments. */
    public InvalidPatchException(String message, int operationIndex, String pointer) {
        super(message, operationIndex, pointer, null);
    }

    /** Creates the exception with an underlying cause. */
    public InvalidPatchException(String message, int operationIndex, String pointer, Throwable cause) {
        super(message, operationIndex, pointer, cause);
    }
}
