package io.tokenflow.security;

import java.io.IOException;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps a session signed in on the form ({@link #markingSignIns} marks it) in step with the person's account: each
 * request of such a session takes the account's roles as they are now ({@link UserAccountDetailsService}, cached for
 * {@code credential-cache-ttl}), and a session of a person who was disabled or removed ends (the request goes on
 * anonymous: the sign-in page, or 401 on the API). While PostgreSQL is away and the account is not cached, the session
 * stays as it was. Without it, a session would keep the roles it signed in with until it expired.
 */
final class FreshAccountFilter extends OncePerRequestFilter {

    /** Session attribute set by the sign-in form's success handler: the sessions this filter keeps in step. */
    static final String SIGNED_IN_WITH_FORM = FreshAccountFilter.class.getName() + ".form";

    private final UserAccountDetailsService accounts;

    FreshAccountFilter(UserAccountDetailsService accounts) {
        this.accounts = accounts;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        HttpSession session = request.getSession(false);
        Object stored = session == null || session.getAttribute(SIGNED_IN_WITH_FORM) == null ? null
                : session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
        if (stored instanceof SecurityContext context
                && context.getAuthentication() instanceof UsernamePasswordAuthenticationToken signedIn
                && signedIn.isAuthenticated()) {
            refresh(request, context, signedIn);
        }
        chain.doFilter(request, response);
    }

    private void refresh(HttpServletRequest request, SecurityContext context,
                         UsernamePasswordAuthenticationToken signedIn) {
        UserDetails account;
        try {
            account = accounts.loadUserByUsername(signedIn.getName());
        } catch (UsernameNotFoundException gone) {
            end(request);
            return;
        } catch (InternalAuthenticationServiceException outage) {
            return;
        }
        if (!account.isEnabled()) {
            end(request);
            return;
        }
        Set<String> now = names(account.getAuthorities());
        if (!now.equals(names(signedIn.getAuthorities()))) {
            UsernamePasswordAuthenticationToken refreshed = UsernamePasswordAuthenticationToken.authenticated(
                    signedIn.getPrincipal(), null, account.getAuthorities());
            refreshed.setDetails(signedIn.getDetails());
            context.setAuthentication(refreshed);
            SecurityContextHolder.getContext().setAuthentication(refreshed);
        }
    }

    /** The sign-in form's success handler: marks the session as one to keep in step, then goes on as usual. */
    static AuthenticationSuccessHandler markingSignIns() {
        SavedRequestAwareAuthenticationSuccessHandler usual = new SavedRequestAwareAuthenticationSuccessHandler();
        return (request, response, authentication) -> {
            request.getSession().setAttribute(SIGNED_IN_WITH_FORM, Boolean.TRUE);
            usual.onAuthenticationSuccess(request, response, authentication);
        };
    }

    private static void end(HttpServletRequest request) {
        SecurityContextHolder.clearContext();
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }

    private static Set<String> names(java.util.Collection<? extends GrantedAuthority> authorities) {
        return authorities.stream().map(GrantedAuthority::getAuthority).collect(Collectors.toSet());
    }
}
