package io.tokenflow.workers.runtime;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.stereotype.Component;

import io.tokenflow.logging.RunLogContext;
import io.tokenflow.workers.Task;
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
    private final RunningTasks running;
    private final Clock clock;
    private final PoisonedTasks poisoned;

    TaskExecutor(TaskDecoder decoder, TaskHandlers handlers, CompletionEncoder encoder, RunningTasks running,
                 PoisonedTasks poisoned, Clock clock) {
        this.poisoned = poisoned;
        this.running = running;
        this.decoder = decoder;
        this.handlers = handlers;
        this.encoder = encoder;
        this.clock = clock;
    }

    /**
     * Looks up the handler of an entry that {@link TaskEntry#identified() names} its token, run and node and decodes
     * its task; a malformed token or a handler bug becomes the failure it ends in.
     */
    Prepared prepare(TaskEntry entry) {
        TaskHandler handler = handlers.find(entry.type()).orElse(null);
        if (handler == null) {
            return Prepared.failed(entry, TaskResult.permanent("no_handler", "Expected a handler for worker type '"
                    + entry.type() + "', but this worker has none for it"));
        }
        Task task;
        try {
            task = decoder.decode(entry);
        } catch (MalformedTaskException e) {
            poisoned.setAside(entry, e.getMessage());
            return Prepared.failed(entry, TaskResult.permanent("malformed_token", e.getMessage()));
        } catch (RuntimeException e) {
            return Prepared.failed(entry, failure(entry, e));
        }
        return new Prepared(entry, handler, task, null, !handler.sideEffectFree(task));
    }

    /**
     * The completion's fields of a prepared entry; empty when its task would have side effects ({@link
     * Prepared#needsLiveRun}) and {@code runIsLive} says its run no longer wants it (asked only then).
     */
    Optional<Map<String, String>> complete(Prepared prepared, String worker, BooleanSupplier runIsLive) {
        TaskEntry entry = prepared.entry();
        try (RunLogContext context = RunLogContext.of(entry.field("run"), entry.field("node"), entry.field("token"),
                entry.type())) {
            long startedAt = clock.millis();
            return execute(prepared, runIsLive).map(result -> encoder.encode(entry, result, worker, startedAt));
        }
    }

    private Optional<TaskResult> execute(Prepared prepared, BooleanSupplier runIsLive) {
        if (prepared.failure() != null) {
            return Optional.of(prepared.failure());
        }
        // outside the handler's try: a status that cannot be read leaves the token pending, it does not fail it
        if (prepared.needsLiveRun() && !runIsLive.getAsBoolean()) {
            return Optional.empty();
        }
        TaskEntry entry = prepared.entry();
        // tasks with side effects (sleep, HTTP, agents) stop when their run is cancelled; quick pure ones just finish
        RunningTasks.Running stoppable = prepared.needsLiveRun() ? running.enter(prepared.task().run()) : null;
        TaskResult result;
        try {
            result = prepared.handler().execute(prepared.task());
            if (result == null) {
                result = TaskResult.permanent("worker_error", "Expected the " + entry.type() + " worker to return "
                        + "a result, but it returned none");
            }
        } catch (RuntimeException e) {
            result = failure(entry, e);
        } finally {
            if (stoppable != null) {
                running.leave(stoppable);
            }
        }
        // a task stopped because its run ended reports nothing: the run no longer wants it
        return stoppable != null && stoppable.cancelled() ? Optional.empty() : Optional.of(result);
    }

    private static TaskResult failure(TaskEntry entry, RuntimeException e) {
        if (e instanceof TransientDataAccessException || e instanceof DataAccessResourceFailureException) {
            return TaskResult.transientFailure("storage_unavailable",
                    "Expected to read the token's input from storage, but: " + e.getMessage());
        }
        log.warn("The {} worker failed on {}", entry.type(), entry, e);
        return TaskResult.permanent("worker_error",
                "Expected the " + entry.type() + " worker to finish, but it failed: " + e);
    }

    /**
     * An entry ready to run: its handler and decoded task, or the failure it ends in without running.
     *
     * @param failure      the result when the task cannot run (no handler, a malformed token), else null
     * @param needsLiveRun whether the task may run only while its run is live: it has side effects ({@link
     *                     TaskHandler#sideEffectFree})
     */
    record Prepared(TaskEntry entry, TaskHandler handler, Task task, TaskResult failure, boolean needsLiveRun) {

        static Prepared failed(TaskEntry entry, TaskResult failure) {
            return new Prepared(entry, null, null, failure, false);
        }
    }
}
