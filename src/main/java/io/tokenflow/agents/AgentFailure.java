package io.tokenflow.agents;

import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.TaskResult;

/** Why an agent node failed, already sorted into a permanent or a transient failure. */
public class AgentFailure extends Exception {

    private final transient TaskResult.Failed failure;

    private AgentFailure(FailureKind kind, String code, String message) {
        super(message, null, false, false);
        this.failure = new TaskResult.Failed(message, kind, code);
    }

    public static AgentFailure permanent(String code, String message) {
        return new AgentFailure(FailureKind.PERMANENT, code, message);
    }

    public static AgentFailure transientFailure(String code, String message) {
        return new AgentFailure(FailureKind.TRANSIENT, code, message);
    }

    public TaskResult.Failed failure() {
        return failure;
    }
}
