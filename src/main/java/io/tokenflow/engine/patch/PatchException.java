package io.tokenflow.engine.patch;

/**
 * Why a JSON Patch could not be read or applied. Every instance names the offending operation and,
 * as a JSON Pointer into the patch document, the member at fault (for example "/2/path"), and its
 * message says what was expected and what was found ("Expected X, but Y").
 */
public abstract sealed class PatchException extends RuntimeException
        permits InvalidPatchException, PatchTestFailedException, PatchApplicationException {

    private static final long serialVersionUID = 1L;

    private final int operationIndex;
    private final String pointer;

    PatchException(String message, int operationIndex, String pointer, Throwable cause) {
        super(message, cause);
        this.operationIndex = operationIndex;
        this.pointer = pointer;
    }

    /** Index of the offending operation in the patch, or -1 if the patch document as a whole is at fault. */
    public int operationIndex() {
        return operationIndex;
    }

    /** JSON Pointer into the patch document of the member at fault, e.g. "/2/path", "/0/op" or "". */
    public String pointer() {
        return pointer;
    }
}
