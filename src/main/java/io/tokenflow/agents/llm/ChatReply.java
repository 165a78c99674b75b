package io.tokenflow.agents.llm;

import tools.jackson.databind.JsonNode;

/**
 * One chat-completions answer.
 *
 * @param message     the assistant message ({@code content}, {@code tool_calls})
 * @param totalTokens the tokens the call used (prompt + completion), 0 when the server does not say
 */
record ChatReply(JsonNode message, long totalTokens, String finishReason) {

    boolean callsTools() {
        return message.path("tool_calls").isArray() && !message.path("tool_calls").isEmpty();
    }

    /** The text answer, or null when there is none. */
    String content() {
        JsonNode content = message.path("content");
        return content.isString() ? content.stringValue() : null;
    }
}
