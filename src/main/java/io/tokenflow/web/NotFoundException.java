package io.tokenflow.web;

/** The thing asked for does not exist (404). */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}
