package io.tokenflow.workers.function;

import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;

/** {@code echo}: outputs its input. */
@Component
class EchoFunction implements WorkflowFunction {

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public boolean sideEffectFree() {
        return true;
    }

    @Override
    public JsonNode apply(FunctionCall call) {
        return call.input();
    }
}
