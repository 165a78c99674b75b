package io.tokenflow.live;

import java.io.IOException;
import java.security.Principal;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;

/**
 * One browser's WebSocket: sends are thread-safe and bounded (a browser that cannot keep up is disconnected, and
 * resumes from its last seen event when it reconnects).
 */
final class LiveSession {

    private static final Log log = LogFactory.getLog(LiveSession.class);

    /** Session attribute: the tenant the handshake acted in. */
    static final String TENANT = LiveSession.class.getName() + ".tenant";

    private final WebSocketSession session;
    private final String tenant;

    LiveSession(WebSocketSession session, LiveSettings settings) {
        this.tenant = session.getAttributes().get(TENANT) instanceof String chosen ? chosen : "-";
        this.session = new ConcurrentWebSocketSessionDecorator(session, (int) settings.sendTimeLimit().toMillis(),
                settings.sendBufferSize(), ConcurrentWebSocketSessionDecorator.OverflowStrategy.TERMINATE);
    }

    String id() {
        return session.getId();
    }

    Principal principal() {
        return session.getPrincipal();
    }

    /** The tenant everything this connection sees belongs to ({@code "-"}, owning nothing, when none was chosen). */
    String tenant() {
        return tenant;
    }

    boolean isOpen() {
        return session.isOpen();
    }

    /** Sends one message of fragments; on failure the connection is closed (the page reconnects). */
    void send(String fragments) {
        if (fragments.isEmpty() || !session.isOpen()) {
            return;
        }
        try {
            session.sendMessage(new TextMessage(fragments));
        } catch (IOException | RuntimeException e) {
            log.debug("Closing live session " + id() + ": " + e.getMessage());
            close(CloseStatus.SESSION_NOT_RELIABLE);
        }
    }

    void close(CloseStatus status) {
        try {
            session.close(status);
        } catch (IOException e) {
            log.debug("Closing live session " + id() + " failed: " + e.getMessage());
        }
    }
}
