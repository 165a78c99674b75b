package io.tokenflow.engine.patch;

/**
 * A well-formed patch cannot be applied to the given document: a path does not exist, an array index
 * is out of range or malformed, a value would be moved into its own child, the root would be removed,
 * or the patch would grow the document beyond {@link JsonPatch#MAX_INTRODUCED_NODES}.
 */
public final class PatchApplicationException extends PatchException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; see {@link PatchException} for the meaning of the arguments. */
    public PatchApplicationException(String message, int operationIndex, String pointer) {
        super(message, operationIndex, pointer, null);
    }

    /** Creates the exception with an underlying cause. */
    public PatchApplicationException(String message, int operationIndex, String pointer, Throwable cause) {
        super(message, operationIndex, pointer, cause);
    }
}
