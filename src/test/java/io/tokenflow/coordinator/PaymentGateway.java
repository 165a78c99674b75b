package io.tokenflow.coordinator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A payment gateway for tests, as a {@code function} node: each call of a node in a run is one more attempt; the
 * attempt numbered {@code succeed_on} succeeds (never when it is 0 or absent), the others fail with
 * {@code error_code}. A redelivered token (same token id) gets the answer it got before.
 */
class PaymentGateway implements WorkflowFunction {

    private final Map<String, Integer> attempts = new ConcurrentHashMap<>();
    private final Map<String, JsonNode> answers = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "payment_gateway";
    }

    @Override
    public JsonNode apply(FunctionCall call) {
        return answers.computeIfAbsent(call.tokenId(), token -> {
            int attempt = attempts.merge(call.runId() + "/" + call.nodeId(), 1, Integer::sum);
            int succeedOn = call.input().path("succeed_on").asInt(0);
            ObjectNode answer = JsonNodeFactory.instance.objectNode().put("attempt", attempt);
            answer.set("amount", call.input().path("amount"));
            if (succeedOn > 0 && attempt >= succeedOn) {
                answer.put("status", "success");
            } else {
                answer.put("status", "failed").put("error_code", call.input().path("error_code").asString("TEMP_ERROR"));
            }
            return answer;
        });
    }
}
