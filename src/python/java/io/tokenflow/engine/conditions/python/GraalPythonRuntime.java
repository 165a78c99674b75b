package io.tokenflow.engine.conditions.python;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;

import io.tokenflow.engine.conditions.ConditionEvaluationException;
import io.tokenflow.engine.conditions.PythonRuntime;

/**
 * Runs python_sandbox conditions on GraalPy, each in a fresh context of one shared engine: no file system, sockets,
 * processes, threads, native code, environment or host classes. Values go in and out as JSON text. Once the context
 * is set up, a watchdog closes it when the time limit passes or when the evaluating thread has allocated more than
 * the memory limit (an allocation budget: what the JVM can measure per thread), which stops even
 * {@code while True: pass}. Setting up a context takes time of its own (interpreter-only on JDK 17), not counted.
 */
public final class GraalPythonRuntime implements PythonRuntime {

    private static final Duration POLL = Duration.ofMillis(5);
    private static final String CHECK = "compile(__code, '<condition>', 'exec')\n"
            + "__g = {'input': None}\nexec(__code, __g)\n"
            + "__r = 'ok' if callable(__g.get('evaluate')) else 'it defines no function evaluate(output, context)'";
    /** Run before the limits start: setting up a context is not the condition's time or memory. */
    private static final String PREPARE = "import json";
    private static final String RUN = "__g = {'input': json.loads(__input)}\nexec(__code, __g)\n"
            + "__r = __g['evaluate'](json.loads(__output), json.loads(__context))";

    private final Engine engine = Engine.newBuilder("python").option("engine.WarnInterpreterOnly", "false").build();
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "python-condition-watchdog");
        thread.setDaemon(true);
        return thread;
    });
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public GraalPythonRuntime() {
        run("def evaluate(output, context):\n    return output['a'] == 1\n", "{\"a\": 1}", "{}", "null", RUN,
                Duration.ofMinutes(2), Long.MAX_VALUE);
    }

    @Override
    public Optional<String> check(String code) {
        try {
            Value result = run(code, "null", "{}", "null", CHECK, Duration.ofSeconds(10), 256L * 1024 * 1024);
            String text = result.asString();
            return text.equals("ok") ? Optional.empty() : Optional.of(text);
        } catch (ConditionEvaluationException e) {
            return Optional.of(e.getMessage());
        }
    }

    @Override
    public boolean evaluate(String code, String output, String context, String input, Duration timeout,
                            long maxMemoryBytes) {
        Value result = run(code, output, context, input, RUN, timeout, maxMemoryBytes);
        if (!result.isBoolean()) {
            throw new ConditionEvaluationException("Expected the Python condition's evaluate() to return True or "
                    + "False, but it returned " + result);
        }
        return result.asBoolean();
    }

    private Value run(String code, String output, String context, String input, String script, Duration timeout,
                      long maxMemoryBytes) {
        AtomicReference<String> stoppedBecause = new AtomicReference<>();
        try (Context python = sandbox()) {
            Value bindings = python.getBindings("python");
            bindings.putMember("__code", code);
            bindings.putMember("__output", output);
            bindings.putMember("__context", context);
            bindings.putMember("__input", input);
            python.eval("python", PREPARE);
            ScheduledFuture<?> guard = guard(python, Thread.currentThread(), timeout, maxMemoryBytes, stoppedBecause);
            try {
                python.eval("python", script);
                return copy(bindings.getMember("__r"));
            } finally {
                guard.cancel(false);
            }
        } catch (PolyglotException e) {
            String reason = stoppedBecause.get();
            throw new ConditionEvaluationException("Expected the Python condition to finish, but "
                    + (reason != null ? reason : "it failed: " + e.getMessage()), e);
        }
    }

    /** Booleans and text survive the context; anything else is described while it is still open. */
    private static Value copy(Value result) {
        return result.isBoolean() || result.isString() ? Value.asValue(result.isBoolean() ? (Object) result.asBoolean()
                : result.asString()) : Value.asValue(String.valueOf(result));
    }

    private ScheduledFuture<?> guard(Context python, Thread evaluating, Duration timeout, long maxMemoryBytes,
                                     AtomicReference<String> stoppedBecause) {
        long start = System.nanoTime();
        long allocatedAtStart = threads.getThreadAllocatedBytes(evaluating.getId());
        return watchdog.scheduleAtFixedRate(() -> {
            String reason = null;
            if (System.nanoTime() - start > timeout.toNanos()) {
                reason = "it ran longer than " + timeout.toMillis() + " ms";
            } else if (threads.getThreadAllocatedBytes(evaluating.getId()) - allocatedAtStart > maxMemoryBytes) {
                reason = "it allocated more than " + maxMemoryBytes / (1024 * 1024) + " MB";
            }
            if (reason != null && stoppedBecause.compareAndSet(null, reason)) {
                python.close(true);
            }
        }, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private Context sandbox() {
        return Context.newBuilder("python").engine(engine)
                .allowIO(IOAccess.NONE).allowCreateProcess(false).allowCreateThread(false).allowNativeAccess(false)
                .allowHostAccess(HostAccess.NONE).allowHostClassLookup(name -> false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE).allowPolyglotAccess(PolyglotAccess.NONE)
                .build();
    }
}
