package io.tokenflow.workers.function;

import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** {@code noop}: outputs {@code {}}. */
@Component
class NoopFunction implements WorkflowFunction {

    @Override
    public String name() {
        return "noop";
    }

    @Override
    public boolean sideEffectFree() {
        return true;
    }

    @Override
    public JsonNode apply(FunctionCall call) {
        return JsonNodeFactory.instance.objectNode();
    }
}
