package io.tokenflow.security;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import io.tokenflow.tenancy.CurrentTenant;

/**
 * Chooses the tenant a request acts in, once, after authentication, and sets it as the {@link CurrentTenant} for the
 * rest of the request: a token's is the tenant it was created in; a person's is the one they switched to in this
 * session ({@link #SESSION_TENANT}, see {@link TenantSwitch}) while they still belong to it, else the first tenant
 * their account lists (every account lists one or more; a principal made without an account, as Spring Security's
 * test support makes them, acts in the default tenant, as an account row does by default). While PostgreSQL is away
 * and the person's account is not cached, a session keeps the tenant it chose; one that chose none acts in
 * {@link #NO_TENANT}, which owns nothing.
 */
final class TenantFilter extends OncePerRequestFilter {

    /** Session attribute: the tenant the person switched to. */
    static final String SESSION_TENANT = TenantFilter.class.getName() + ".tenant";
    /** Not a tenant id (ids cannot start with '-'): a request acting in it sees no tenant's rows. */
    static final String NO_TENANT = "-";

    private final UserAccountDetailsService accounts;

    TenantFilter(UserAccountDetailsService accounts) {
        this.accounts = accounts;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            chain.doFilter(request, response);
            return;
        }
        CurrentTenant.set(tenantOf(authentication, request.getSession(false)));
        try {
            chain.doFilter(request, response);
        } finally {
            CurrentTenant.clear();
        }
    }

    private String tenantOf(Authentication authentication, HttpSession session) {
        if (authentication instanceof ApiTokenAuthentication token) {
            return token.tenant();
        }
        Object chosen = session == null ? null : session.getAttribute(SESSION_TENANT);
        List<String> tenants;
        try {
            tenants = accounts.tenantsOf(authentication.getName());
        } catch (InternalAuthenticationServiceException outage) {
            return chosen instanceof String tenant ? tenant : NO_TENANT;
        }
        if (chosen instanceof String tenant && tenants.contains(tenant)) {
            return tenant;
        }
        return tenants.isEmpty() ? CurrentTenant.DEFAULT : tenants.get(0);
    }
}
