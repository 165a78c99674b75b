package io.tokenflow.workers;

/**
 * Does the work of one worker type. Handlers are shared by all consumer threads of their type, so they must be
 * thread-safe; they run a task at least once (a crash may repeat it), so side effects should use {@link Task#token()}
 * as their idempotency key. Expected failures are returned, not thrown.
 */
public interface TaskHandler {

    /** The worker type served, e.g. {@code function}; tokens come from {@code wf.tasks.<type>:{N}}. */
    String type();

    TaskResult execute(Task task);

    /**
     * Whether running this task does nothing but compute its result (no calls out, no writes, quick). The worker then
     * runs it while it asks whether the run still wants it, and drops the result if not; otherwise it asks first, so a
     * cancelled run's tokens cause no side effects. False unless a handler knows better.
     */
    default boolean sideEffectFree(Task task) {
        return false;
    }
}
