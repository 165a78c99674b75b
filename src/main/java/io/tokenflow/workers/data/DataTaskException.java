package io.tokenflow.workers.data;

import io.tokenflow.workers.TaskResult;

/** A data task that cannot be done with its config or input: a permanent failure with a code. */
class DataTaskException extends Exception {

    private final String code;

    DataTaskException(String code, String message) {
        super(message);
        this.code = code;
    }

    static DataTaskException invalidConfig(String message) {
        return new DataTaskException("invalid_config", message);
    }

    TaskResult.Failed toResult() {
        return TaskResult.permanent(code, getMessage());
    }
}
