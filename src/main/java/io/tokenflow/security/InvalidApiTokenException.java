package io.tokenflow.security;

import org.springframework.security.core.AuthenticationException;

/** A bearer token that is unknown, revoked, expired, or whose owner may no longer sign in: answered with 401. */
class InvalidApiTokenException extends AuthenticationException {

    InvalidApiTokenException(String message) {
        super(message);
    }
}
