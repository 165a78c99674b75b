package io.tokenflow.workers.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.StreamMessage;

/**
 * Works through one batch of tokens on one consumer: runs them, sends their completions (pipelined: routed in-process
 * or added to the completions stream) and only then acknowledges and deletes the tokens. A token whose completion
 * could not be routed or added stays pending and is claimed again later. Tokens of cancelled, failed or vanished runs
 * are acknowledged without a completion: their runs' statuses are asked for when the batch arrives. A task with side
 * effects waits for the answer, so it never runs for such a run; a task its handler calls side-effect free runs
 * meanwhile and its result is dropped. When completions are routed in-process, side-effect-free tasks run without
 * asking: the routing step reads the run's status anyway and refuses a completion of a run that has ended (one whose
 * keys are gone from Redis altogether as an unknown run, recorded as a refused signal).
 */
final class BatchProcessor {

    private static final Logger log = LoggerFactory.getLogger(BatchProcessor.class);
    private static final long FLUSH_AFTER_NANOS = Duration.ofMillis(2).toNanos();

    private final TaskStreams streams;
    private final TaskExecutor executor;
    private final String type;
    private final String worker;
    private final HeldTokens held;
    private final PoisonedTasks poisoned;

    BatchProcessor(TaskStreams streams, TaskExecutor executor, PoisonedTasks poisoned, String type, String worker,
                   HeldTokens held) {
        this.poisoned = poisoned;
        this.streams = streams;
        this.executor = executor;
        this.type = type;
        this.worker = worker;
        this.held = held;
    }

    void process(List<StreamMessage<String, String>> messages) {
        if (messages.isEmpty()) {
            return;
        }
        List<TaskEntry> entries = new ArrayList<>(messages.size());
        messages.forEach(message -> entries.add(toEntry(message)));
        Map<String, List<String>> finished = new LinkedHashMap<>();
        held.hold(entries);
        try {
            List<TaskExecutor.Prepared> prepared = new ArrayList<>(entries.size());
            entries.forEach(entry -> prepared.add(entry.identified() ? executor.prepare(entry) : null));
            TaskStreams.RunStatuses statuses = streams.askRunStatuses(runShardsToAsk(prepared));
            collectWritten(runAll(entries, prepared, statuses, finished), finished);
        } finally {
            held.release();
        }
        if (!finished.isEmpty()) {
            streams.acknowledge(finished);
        }
    }

    /** Runs the entries in order, sending completions as they come when work is slow, in one go when it is fast. */
    private List<Written> runAll(List<TaskEntry> entries, List<TaskExecutor.Prepared> prepared,
                                 TaskStreams.RunStatuses statuses, Map<String, List<String>> finished) {
        List<Written> written = new ArrayList<>(entries.size());
        long flushedAt = System.nanoTime();
        for (int i = 0; i < entries.size(); i++) {
            held.advance(i);
            handle(entries.get(i), prepared.get(i), statuses, finished, written);
            if (System.nanoTime() - flushedAt > FLUSH_AFTER_NANOS) {
                streams.flush();
                flushedAt = System.nanoTime();
            }
        }
        streams.flush();
        return written;
    }

    private void handle(TaskEntry entry, TaskExecutor.Prepared prepared, TaskStreams.RunStatuses statuses,
                        Map<String, List<String>> finished, List<Written> written) {
        if (prepared == null) {
            // left pending when the quarantine cannot take it: claimed and set aside again later, never lost
            if (poisoned.setAside(entry, "Expected a token with token, run and node fields (docs/worker-protocol.md), "
                    + "but it has " + entry.fields().keySet())) {
                add(finished, entry);
            }
            return;
        }
        Optional<UUID> run = entry.runId();
        BooleanSupplier live = () -> run.isEmpty() || statuses.live(run.get());
        try {
            Optional<Map<String, String>> completion = executor.complete(prepared, worker, live);
            if (completion.isEmpty() || (asksRunStatus(prepared) && !live.getAsBoolean())) {
                add(finished, entry);
                return;
            }
            written.add(new Written(entry, streams.complete(entry, completion.get())));
        } catch (RuntimeException e) {
            log.warn("Could not report the completion of {}; it stays pending and is claimed again", entry, e);
        }
    }

    private static void collectWritten(List<Written> written, Map<String, List<String>> finished) {
        for (Written item : written) {
            try {
                item.completion().await();
                add(finished, item.entry());
            } catch (RuntimeException e) {
                log.warn("Could not report the completion of {}; it stays pending and is claimed again", item.entry(),
                        e);
            }
        }
    }

    private TaskEntry toEntry(StreamMessage<String, String> message) {
        return new TaskEntry(message.getStream(), streams.shardOf(message.getStream()), message.getId(), type,
                message.getBody());
    }

    /** Whether the task's run status is asked for (see the class comment). */
    private boolean asksRunStatus(TaskExecutor.Prepared task) {
        return task.needsLiveRun() || !streams.routesInProcess();
    }

    /** The runs (and their shards) whose status is asked for. */
    private Map<UUID, Integer> runShardsToAsk(List<TaskExecutor.Prepared> prepared) {
        Map<UUID, Integer> runs = new HashMap<>();
        for (TaskExecutor.Prepared task : prepared) {
            if (task != null && asksRunStatus(task)) {
                task.entry().runId().ifPresent(run -> runs.put(run, task.entry().shard()));
            }
        }
        return runs;
    }

    private static void add(Map<String, List<String>> idsByStream, TaskEntry entry) {
        idsByStream.computeIfAbsent(entry.stream(), stream -> new ArrayList<>()).add(entry.id());
    }

    private record Written(TaskEntry entry, TaskStreams.SentCompletion completion) {
    }
}
