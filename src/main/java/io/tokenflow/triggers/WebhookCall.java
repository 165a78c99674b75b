package io.tokenflow.triggers;

import java.util.Map;
import java.util.TreeMap;

/**
 * One call to {@code POST /hooks/{workflow}/{trigger}} as received: the raw body (signatures cover its bytes).
 *
 * @param headers the headers the webhook reads, by name (case-insensitive)
 */
record WebhookCall(String workflow, String trigger, Map<String, String> headers, byte[] body, String remoteAddress) {

    WebhookCall {
        Map<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        copy.putAll(headers);
        headers = copy;
        body = body == null ? new byte[0] : body;
    }

    String header(String name) {
        return headers.get(name);
    }
}
