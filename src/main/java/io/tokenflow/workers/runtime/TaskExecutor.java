package io.tokenflow.workers.runtime;

import java.time.Clock;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.stereotype.Component;

import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskHandlers;
import io.tokenflow.workers.TaskResult;

/**
 * Runs one token through the handler of its type and encodes the completion. Whatever goes wrong becomes a failed
 * completion: a malformed token or a handler bug fails permanently, an unreachable database transiently.
 */
@Component
class TaskExecutor {

    private static final Logger log = LoggerFactory.getLogger(TaskExecutor.class);

    private final TaskDecoder decoder;
    private final TaskHandlers handlers;
    private final CompletionEncoder encoder;
    private final Clock clock;

    TaskExecutor(TaskDecoder decoder, TaskHandlers handlers, CompletionEncoder encoder, Clock clock) {
        this.decoder = decoder;
        this.handlers = handlers;
        this.encoder = encoder;
        this.clock = clock;
    }

    /** The completion's fields for an entry that {@link TaskEntry#identified() names} its token, run and node. */
    Map<String, String> complete(TaskEntry entry, String worker) {
        long startedAt = clock.millis();
        return encoder.encode(entry, execute(entry), worker, startedAt);
    }

    TaskResult execute(TaskEntry entry) {
        TaskHandler handler = handlers.find(entry.type()).orElse(null);
        if (handler == null) {
            return TaskResult.permanent("no_handler", "Expected a handler for worker type '" + entry.type()
                    + "', but this worker has none for it");
        }
        try {
            TaskResult result = handler.execute(decoder.decode(entry));
            return result != null ? result : TaskResult.permanent("worker_error",
                    "Expected the " + entry.type() + " worker to return a result, but it returned none");
        } catch (MalformedTaskException e) {
            return TaskResult.permanent("malformed_token", e.getMessage());
        } catch (TransientDataAccessException | DataAccessResourceFailureException e) {
            return TaskResult.transientFailure("storage_unavailable",
                    "Expected to read the token's input from storage, but: " + e.getMessage());
        } catch (RuntimeException e) {
            log.warn("The {} worker failed on {}", entry.type(), entry, e);
            return TaskResult.permanent("worker_error",
                    "Expected the " + entry.type() + " worker to finish, but it failed: " + e);
        }
    }
}
