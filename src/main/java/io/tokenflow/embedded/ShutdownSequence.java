package io.tokenflow.embedded;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stops the embedded servers (and deletes an ephemeral data folder) when the JVM exits, once the application contexts
 * that use them have closed. Each context closes in a shutdown hook of its own, and the JVM runs all hooks at once: a
 * server stopped in a hook of its own went away while workers and the supervisor were still stopping, and every one of
 * them logged the lost connection. The steps run in reverse order of registration (a server before the folder it
 * keeps its data in), after waiting at most {@link #CONTEXTS_CLOSE_WAIT} for the contexts.
 */
final class ShutdownSequence {

    private static final Duration CONTEXTS_CLOSE_WAIT = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 20;

    /** Weakly held: a closed context nothing else refers to any more is of no concern. */
    private static final Set<ConfigurableApplicationContext> USERS = Collections.newSetFromMap(new WeakHashMap<>());
    private static final Deque<Step> STEPS = new ArrayDeque<>();
    private static Thread hook;

    private ShutdownSequence() {
    }

    /** A context that uses the embedded servers: they stop only after it has closed. */
    static synchronized void usedBy(ConfigurableApplicationContext context) {
        USERS.add(context);
    }

    /** Runs {@code action} when the JVM exits, after the steps registered later. */
    static synchronized void atExit(String what, Action action) {
        STEPS.push(new Step(what, action));
        if (hook == null) {
            hook = new Thread(ShutdownSequence::run, "tokenflow-embedded-stop");
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    private static void run() {
        awaitContextsClosed();
        List<Step> steps;
        synchronized (ShutdownSequence.class) {
            steps = new ArrayList<>(STEPS);
        }
        for (Step step : steps) {
            try {
                step.action().run();
            } catch (Exception | LinkageError e) {
                // the JVM is exiting and logging may be gone: say it on the console
                System.err.println("Tokenflow: could not " + step.what() + " on exit: " + e);
            }
        }
    }

    private static void awaitContextsClosed() {
        List<ConfigurableApplicationContext> users;
        synchronized (ShutdownSequence.class) {
            users = new ArrayList<>(USERS);
        }
        long deadline = System.nanoTime() + CONTEXTS_CLOSE_WAIT.toNanos();
        for (ConfigurableApplicationContext context : users) {
            while (context.isActive() && System.nanoTime() - deadline < 0) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Something to do on exit that may fail. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private record Step(String what, Action action) {
    }
}
