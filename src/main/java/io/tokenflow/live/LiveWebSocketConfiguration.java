package io.tokenflow.live;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;

/**
 * Serves {@code /live} to pages of this origin only (the page security chain requires a signed-in session): the
 * handshake must carry an {@code Origin} ({@link RequireOrigin}), and Spring's default check makes it this server's.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class LiveWebSocketConfiguration implements WebSocketConfigurer {

    static final String PATH = "/live";

    private final LiveSocketHandler handler;

    LiveWebSocketConfiguration(LiveSocketHandler handler) {
        this.handler = handler;
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(handler, PATH).addInterceptors(new RequireOrigin());
    }
}
