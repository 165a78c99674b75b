package io.tokenflow.security;

import java.io.IOException;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.authorization.AuthorityAuthorizationDecision;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;

import io.tokenflow.web.Outages;
import io.tokenflow.web.Problems;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers refused API requests with RFC 7807 {@code application/problem+json}: 401 with {@code WWW-Authenticate:
 * Bearer} (never a redirect, never a Basic challenge that would pop up a browser dialog), 403, and 503 with
 * {@code Retry-After} when credentials that are not cached cannot be checked because PostgreSQL is unreachable.
 */
class ApiProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {

    private static final String CHALLENGE = "Bearer realm=\"tokenflow\"";

    private final JsonMapper json;

    ApiProblemResponses(JsonMapper json) {
        this.json = json;
    }

    /** The body written for refused requests: the members of RFC 7807. */
    record Problem(String type, String title, int status, String detail, String instance) {
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException exception)
            throws IOException {
        Optional<Outages.Outage> outage = Outages.of(exception);
        if (outage.isPresent()) {
            response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(Outages.RETRY_AFTER.toSeconds()));
            write(request, response, HttpStatus.SERVICE_UNAVAILABLE, "unavailable", outage.get().detail());
            return;
        }
        String challenge = exception instanceof InvalidApiTokenException ? CHALLENGE + ", error=\"invalid_token\"" : CHALLENGE;
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, challenge);
        write(request, response, HttpStatus.UNAUTHORIZED, "unauthenticated", unauthenticatedDetail(exception));
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException exception)
            throws IOException {
        write(request, response, HttpStatus.FORBIDDEN, "forbidden", forbiddenDetail(exception));
    }

    private void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String slug,
                       String detail)
            throws IOException {
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        Problem problem = new Problem(Problems.TYPE_BASE + slug, status.getReasonPhrase(), status.value(), detail,
                request.getRequestURI());
        json.writeValue(response.getOutputStream(), problem);
    }

    private static String unauthenticatedDetail(AuthenticationException exception) {
        if (exception instanceof InvalidApiTokenException) {
            return exception.getMessage();
        }
        if (exception instanceof BadCredentialsException) {
            return "Expected a known username and matching password, but they did not match";
        }
        if (exception instanceof InsufficientAuthenticationException) {
            return "Expected a bearer token (Authorization: Bearer tf_…) or a signed-in session, but the request "
                    + "carried neither";
        }
        return "Expected valid credentials, but " + exception.getMessage();
    }

    private static String forbiddenDetail(AccessDeniedException exception) {
        if (exception instanceof CsrfException) {
            return "Expected a CSRF token in the X-CSRF-TOKEN header of a session-authenticated request, but it was "
                    + "missing or invalid (scripts should send Authorization: Bearer instead of a session cookie)";
        }
        if (exception instanceof AuthorizationDeniedException denied
                && denied.getAuthorizationResult() instanceof AuthorityAuthorizationDecision decision) {
            return "Expected one of the authorities " + decision.getAuthorities().stream()
                    .map(GrantedAuthority::getAuthority).sorted().toList() + ", but the caller holds none of them";
        }
        return "Expected permission for this request, but it was denied";
    }
}
