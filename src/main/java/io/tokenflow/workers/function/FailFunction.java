package io.tokenflow.workers.function;

import java.util.Locale;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.FailureKind;
import tools.jackson.databind.JsonNode;

/** {@code fail}: fails with {@code args.message} and {@code args.kind} ({@code transient} or {@code permanent}). */
@Component
class FailFunction implements WorkflowFunction {

    @Override
    public String name() {
        return "fail";
    }

    @Override
    public JsonNode apply(FunctionCall call) {
        JsonNode message = call.args().path("message");
        JsonNode kindArg = call.args().path("kind");
        String kind = kindArg.isMissingNode() ? "PERMANENT"
                : kindArg.isString() ? kindArg.asString().toUpperCase(Locale.ROOT) : "";
        if (!kind.equals("TRANSIENT") && !kind.equals("PERMANENT")) {
            throw new FunctionFailedException("Expected args.kind to be transient or permanent, but found "
                    + call.args().path("kind"), FailureKind.PERMANENT, "invalid_config");
        }
        throw new FunctionFailedException(message.isString() ? message.asString() : "Failed on purpose",
                FailureKind.valueOf(kind), "failed");
    }
}
