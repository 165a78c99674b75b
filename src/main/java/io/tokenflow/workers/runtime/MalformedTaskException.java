package io.tokenflow.workers.runtime;

/** A token whose fields break the worker protocol (docs/worker-protocol.md §2); it fails permanently. */
class MalformedTaskException extends Exception {

    MalformedTaskException(String message) {
        super(message);
    }
}
