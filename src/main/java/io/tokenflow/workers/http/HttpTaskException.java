package io.tokenflow.workers.http;

import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.TaskResult;

/** Why an HTTP task failed, already sorted into a permanent or transient failure. */
class HttpTaskException extends Exception {

    private final transient TaskResult.Failed failure;

    HttpTaskException(FailureKind kind, String code, String message) {
        super(message, null, false, false);
        this.failure = new TaskResult.Failed(message, kind, code);
    }

    static HttpTaskException permanent(String code, String message) {
        return new HttpTaskException(FailureKind.PERMANENT, code, message);
    }

    static HttpTaskException transientFailure(String code, String message) {
        return new HttpTaskException(FailureKind.TRANSIENT, code, message);
    }

    TaskResult.Failed failure() {
        return failure;
    }
}
