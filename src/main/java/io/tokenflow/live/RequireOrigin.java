package io.tokenflow.live;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.HandshakeInterceptor;

import io.tokenflow.tenancy.CurrentTenant;

/**
 * Refuses a {@code /live} handshake without an {@code Origin} header (403). Spring's same-origin check lets such a
 * handshake through (a request without an Origin counts as same-origin), but every browser sends one on a WebSocket
 * handshake: one without it comes from a script holding a copied session cookie, not from our pages. Keeps the
 * tenant the handshake request acts in ({@link CurrentTenant}, chosen by the filter chain) with the WebSocket, for
 * everything the connection subscribes to.
 */
final class RequireOrigin implements HandshakeInterceptor {

    @Override
    public boolean beforeHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
                                   Map<String, Object> attributes) {
        if (request.getHeaders().getOrigin() == null) {
            response.setStatusCode(HttpStatus.FORBIDDEN);
            return false;
        }
        CurrentTenant.get().ifPresent(tenant -> attributes.put(LiveSession.TENANT, tenant));
        return true;
    }

    @Override
    public void afterHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
                               Exception exception) {
    }
}
