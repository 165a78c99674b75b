package io.tokenflow.roles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * On an instance without the web role, answers every request but the actuator's (health, metrics, for probes and
 * scrapers) with 404 problem+json saying so: the UI, the REST API, webhooks and live views are served by the
 * instances with the web role.
 */
@Component
@ConditionalOnProperty(name = "tokenflow.web.enabled", havingValue = "false")
@Order(Ordered.HIGHEST_PRECEDENCE)
class WebRoleFilter extends OncePerRequestFilter {

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.equals("/actuator") || path.startsWith("/actuator/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setStatus(404);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                + "\"detail\":\"Expected a request for the actuator, as this instance runs without the web role "
                + "(tokenflow.roles); the UI, the REST API, webhooks and live views are served by instances with "
                + "it\"}").getBytes(StandardCharsets.UTF_8));
    }
}
