package io.tokenflow.engine.patch;

/**
 * Thrown by {@link JsonPointer#parse(String)} when a string is not RFC 6901 syntax (it does not start
 * with "/" or has a "~" that is not followed by "0" or "1"). {@link JsonPatch#parse} reports the same
 * problem inside a patch as an {@link InvalidPatchException} naming the operation and member.
 */
public final class InvalidJsonPointerException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    InvalidJsonPointerException(String reason) {
        super("Expected a JSON Pointer (RFC 6901), but " + reason);
        this.reason = reason;
    }

    /** Why the text is not a pointer, phrased to follow "but", e.g. {@code "a" does not start with "/"}. */
    public String reason() {
        return reason;
    }
}
