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
}
