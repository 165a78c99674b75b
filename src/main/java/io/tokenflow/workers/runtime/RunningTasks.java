package io.tokenflow.workers.runtime;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * The tasks this instance's built-in workers are running, by run, so that a run's cancellation reaches them: a task
 * whose run ends is interrupted (a {@code sleep} wakes, an HTTP call is aborted) and its result dropped. A worker
 * thread is interrupted only while it is inside its handler ({@link Running#leave} clears a late interrupt under the
 * same lock), never during its own Redis calls.
 */
@Component
class RunningTasks {

    private final Map<UUID, Set<Running>> byRun = new ConcurrentHashMap<>();

    /** Registers the calling thread as running a task of {@code run}; call {@link #leave} when the handler returns. */
    Running enter(UUID run) {
        Running running = new Running(run, Thread.currentThread());
        byRun.computeIfAbsent(run, key -> ConcurrentHashMap.newKeySet()).add(running);
        return running;
    }

    void leave(Running running) {
        running.leave();
        byRun.computeIfPresent(running.run, (run, tasks) -> {
            tasks.remove(running);
            return tasks.isEmpty() ? null : tasks;
        });
    }

    /** Interrupts the run's running tasks; how many there were. */
    int cancel(UUID run) {
        Set<Running> tasks = byRun.getOrDefault(run, Set.of());
        tasks.forEach(Running::cancel);
        return tasks.size();
    }

    /** How many tasks of the run are running here. */
    int count(UUID run) {
        return byRun.getOrDefault(run, Set.of()).size();
    }

    /** One task in its handler. */
    static final class Running {

        private final UUID run;
        private final Thread thread;
        private boolean inHandler = true;
        private boolean cancelled;

        private Running(UUID run, Thread thread) {
            this.run = run;
            this.thread = thread;
        }

        synchronized boolean cancelled() {
            return cancelled;
        }

        private synchronized void cancel() {
            cancelled = true;
            if (inHandler) {
                thread.interrupt();
            }
        }

        private synchronized void leave() {
            inHandler = false;
            Thread.interrupted();
        }
    }
}
