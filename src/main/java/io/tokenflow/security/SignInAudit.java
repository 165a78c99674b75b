package io.tokenflow.security;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.DisabledException;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.authentication.event.InteractiveAuthenticationSuccessEvent;
import org.springframework.security.authentication.event.LogoutSuccessEvent;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.WebAuthenticationDetails;
import org.springframework.stereotype.Component;

/**
 * Writes people's sign-ins (the sign-in form), failed sign-ins (form or HTTP Basic: wrong password, unknown or
 * disabled user) and sign-outs to the {@link AuditLog}, from Spring Security's authentication events. A successful
 * HTTP Basic or API token request is not a sign-in (each request authenticates anew) and is not recorded; a refused
 * API token answers 401 and is not recorded either (the token's secret is not a name to log). While PostgreSQL is
 * away, sign-ins from the credential cache go on and their audit entries are only logged.
 */
@Component
class SignInAudit {

    private static final Logger log = LoggerFactory.getLogger(SignInAudit.class);

    private final AuditLog audit;

    SignInAudit(AuditLog audit) {
        this.audit = audit;
    }

    @EventListener
    void signedIn(InteractiveAuthenticationSuccessEvent event) {
        Authentication who = event.getAuthentication();
        recordQuietly(who.getName(), "sign-in", Map.of(), remoteAddress(who));
    }

    @EventListener
    void failed(AbstractAuthenticationFailureEvent event) {
        Authentication who = event.getAuthentication();
        if (who instanceof ApiTokenAuthentication) {
            return;
        }
        String name = who.getName() == null || who.getName().isBlank() ? "-" : who.getName();
        recordQuietly(name, "sign-in.failed", Map.of("reason", reason(event.getException())), remoteAddress(who));
    }

    @EventListener
    void signedOut(LogoutSuccessEvent event) {
        Authentication who = event.getAuthentication();
        recordQuietly(who.getName(), "sign-out", Map.of(), remoteAddress(who));
    }

    /**
     * Records, or only logs when PostgreSQL cannot take it: a person signing in from the cache while PostgreSQL is
     * away (see CredentialCache) is not turned away because the audit row cannot be written; the log keeps it.
     */
    private void recordQuietly(String actor, String action, Map<String, String> details, String remoteAddress) {
        try {
            audit.record(actor, action, null, details, remoteAddress);
        } catch (RuntimeException e) {
            log.warn("Could not write the audit row of {} {} from {} ({}); it is only in this log", actor, action,
                    remoteAddress, e.getMessage());
        }
    }

    private static String reason(AuthenticationException refusal) {
        if (refusal instanceof DisabledException) {
            return "disabled";
        }
        if (refusal instanceof BadCredentialsException) {
            return "wrong username or password";
        }
        return "could not be checked";
    }

    private static String remoteAddress(Authentication authentication) {
        return authentication.getDetails() instanceof WebAuthenticationDetails details ? details.getRemoteAddress()
                : null;
    }
}
