package io.tokenflow.workers.function;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.FailureKind;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** {@code set}: outputs its input object with the fields of {@code args} set on it (a shallow merge). */
@Component
class SetFunction implements WorkflowFunction {

    @Override
    public String name() {
        return "set";
    }

    @Override
    public boolean sideEffectFree() {
        return true;
    }

    @Override
    public JsonNode apply(FunctionCall call) {
        JsonNode input = call.input();
        if (!input.isObject() && !input.isNull() && !input.isMissingNode()) {
            throw new FunctionFailedException("Expected an object input to set fields on, but found "
                    + input.getNodeType(), FailureKind.PERMANENT, "invalid_input");
        }
        if (!call.args().isObject()) {
            throw new FunctionFailedException("Expected config.args to be an object, but found "
                    + call.args().getNodeType(), FailureKind.PERMANENT, "invalid_config");
        }
        ObjectNode output = input.isObject() ? ((ObjectNode) input).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        return output.setAll((ObjectNode) call.args());
    }
}
