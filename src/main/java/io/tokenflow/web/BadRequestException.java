package io.tokenflow.web;

/**
 * The request itself is wrong (400), with the JSON pointer (or request part, e.g. {@code header:If-Match}) at fault.
 */
public class BadRequestException extends RuntimeException {

    private final String pointer;
    private final int status;

    public BadRequestException(String message, String pointer) {
        this(400, message, pointer);
    }

    public BadRequestException(int status, String message, String pointer) {
        super(message);
        this.status = status;
        this.pointer = pointer;
    }

    public String pointer() {
        return pointer;
    }

    public int status() {
        return status;
    }
}
