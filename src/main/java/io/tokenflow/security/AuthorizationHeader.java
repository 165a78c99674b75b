package io.tokenflow.security;

import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.AuthenticationConverter;

/**
 * Reads {@code Authorization: Bearer …}. Requests carrying a Bearer or Basic header are exempt from CSRF checks:
 * browsers never attach such a header to a cross-site request on their own (we never send a Basic challenge).
 */
class AuthorizationHeader implements AuthenticationConverter {

    private static final String BEARER = "Bearer ";
    private static final String BASIC = "Basic ";

    @Override
    public Authentication convert(HttpServletRequest request) {
        return bearerToken(request).map(ApiTokenSecret::new).map(ApiTokenAuthentication::unverified).orElse(null);
    }

    static boolean carriesCredentials(HttpServletRequest request) {
        return bearerToken(request).isPresent() || hasScheme(header(request), BASIC);
    }

    private static Optional<String> bearerToken(HttpServletRequest request) {
        String header = header(request);
        return hasScheme(header, BEARER) ? Optional.of(header.substring(BEARER.length()).strip()) : Optional.empty();
    }

    private static boolean hasScheme(String header, String scheme) {
        return header != null && header.regionMatches(true, 0, scheme, 0, scheme.length());
    }

    private static String header(HttpServletRequest request) {
        return request.getHeader(HttpHeaders.AUTHORIZATION);
    }
}
