package io.tokenflow.web;

/** The caller is known but may not do this (403); the message says who may. */
public class ForbiddenException extends RuntimeException {

    public ForbiddenException(String message) {
        super(message);
    }
}
