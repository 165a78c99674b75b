package io.tokenflow.live;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /live}: a page sends {@code {"subscribe": "run:<id>", "after": 41, "params": {"status": "RUNNING"}}} (when it
 * connects, and again after every reconnect, with the last event it saw) or {@code {"unsubscribe": "<topic>"}}, and
 * receives {@code hx-swap-oob} fragments. The handshake is an ordinary page request: it needs the signed-in session.
 */
@Component
class LiveSocketHandler extends TextWebSocketHandler {

    private static final int MAX_MESSAGE = 4096;

    private final LiveUpdates updates;
    private final LiveSettings settings;
    private final JsonMapper json;
    private final Map<String, LiveSession> sessions = new java.util.concurrent.ConcurrentHashMap<>();

    LiveSocketHandler(LiveUpdates updates, LiveSettings settings, JsonMapper json) {
        this.updates = updates;
        this.settings = settings;
        this.json = json;
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        sessions.put(session.getId(), new LiveSession(session, settings));
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) {
        LiveSession live = sessions.get(session.getId());
        if (live == null) {
            return;
        }
        try {
            handle(live, request(message));
        } catch (IllegalArgumentException e) {
            live.send(LiveMessages.problem(e.getMessage()));
        }
    }

    private void handle(LiveSession live, JsonNode request) {
        if (request.hasNonNull("unsubscribe")) {
            updates.unsubscribe(live, request.get("unsubscribe").asString());
            return;
        }
        JsonNode topic = request.get("subscribe");
        if (topic == null || !topic.isString()) {
            throw new IllegalArgumentException("Expected {\"subscribe\": topic, \"after\": seq} or "
                    + "{\"unsubscribe\": topic}, but found " + request);
        }
        JsonNode after = request.path("after");
        if (!after.isMissingNode() && !after.isNull() && (!after.canConvertToLong() || after.asLong() < 0)) {
            throw new IllegalArgumentException("Expected \"after\" to be a seq >= 0, but found " + after);
        }
        Map<String, String> params = new LinkedHashMap<>();
        request.path("params").properties().forEach(entry -> {
            if (!entry.getValue().isNull() && !entry.getValue().asString("").isBlank()) {
                params.put(entry.getKey(), entry.getValue().asString(""));
            }
        });
        updates.subscribe(live, topic.asString(), after.asLong(0), params);
    }

    private JsonNode request(TextMessage message) {
        if (message.getPayloadLength() > MAX_MESSAGE) {
            throw new IllegalArgumentException("Expected a live request of at most " + MAX_MESSAGE + " bytes, but it "
                    + "has " + message.getPayloadLength());
        }
        try {
            JsonNode request = json.readTree(message.getPayload());
            if (!request.isObject()) {
                throw new IllegalArgumentException("Expected a JSON object, but found " + request);
            }
            return request;
        } catch (JacksonException e) {
            throw new IllegalArgumentException("Expected a JSON object, but " + e.getOriginalMessage());
        }
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        LiveSession live = sessions.remove(session.getId());
        if (live != null) {
            updates.closed(live);
        }
    }
}
