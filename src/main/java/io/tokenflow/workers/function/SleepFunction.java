package io.tokenflow.workers.function;

import java.time.Duration;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.FailureKind;
import tools.jackson.databind.JsonNode;

/** {@code sleep}: waits {@code args.ms} milliseconds (at most a minute), then outputs its input. */
@Component
class SleepFunction implements WorkflowFunction {

    static final Duration LONGEST = Duration.ofMinutes(1);

    @Override
    public String name() {
        return "sleep";
    }

    @Override
    public JsonNode apply(FunctionCall call) throws InterruptedException {
        JsonNode ms = call.args().path("ms");
        if (!ms.isMissingNode() && !(ms.isNumber() && ms.asLong() >= 0)) {
            throw new FunctionFailedException("Expected args.ms to be a number of milliseconds >= 0, but found " + ms,
                    FailureKind.PERMANENT, "invalid_config");
        }
        Thread.sleep(Math.min(ms.asLong(0), LONGEST.toMillis()));
        return call.input();
    }
}
