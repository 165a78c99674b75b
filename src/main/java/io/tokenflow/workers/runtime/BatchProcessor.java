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
 * Works through one batch of tokens on one consumer: skips tokens of cancelled, failed or vanished runs, runs the
 * rest, sends their completions (pipelined: routed in-process or added to the completions stream) and only then
 * acknowledges and deletes the tokens. A token whose completion could not be routed or added stays pending and is
 * claimed again later. The runs' statuses are asked for when the batch arrives; a task its handler calls side-effect
 * free runs meanwhile (its result is dropped if the run is no longer live), any other waits for the answer, so a
 * cancelled run's tokens cause no side effects.
 */
final class BatchProcessor {

    private static final Logger log = LoggerFactory.getLogger(BatchProcessor.class);
    private static final long FLUSH_AFTER_NANOS = Duration.ofMillis(2).toNanos();

    private final TaskStreams streams;
    private final TaskExecutor executor;
    private final String type;
    private final String worker;
    private final HeldTokens held;

    BatchProcessor(TaskStreams streams, TaskExecutor executor, String type, String worker, HeldTokens held) {
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
        TaskStreams.RunStatuses statuses = streams.askRunStatuses(runShards(entries));
        Map<String, List<String>> finished = new LinkedHashMap<>();
        held.hold(entries);
        try {
            collectWritten(runAll(entries, statuses, finished), finished);
        } finally {
            held.release();
        }
        if (!finished.isEmpty()) {
            streams.acknowledge(finished);
        }
    }

    /** Runs the entries in order, sending completions as they come when work is slow, in one go when it is fast. */
    private List<Written> runAll(List<TaskEntry> entries, TaskStreams.RunStatuses statuses,
                                 Map<String, List<String>> finished) {
        List<Written> written = new ArrayList<>(entries.size());
        long flushedAt = System.nanoTime();
        for (int i = 0; i < entries.size(); i++) {
            held.advance(i);
            handle(entries.get(i), statuses, finished, written);
            if (System.nanoTime() - flushedAt > FLUSH_AFTER_NANOS) {
                streams.flush();
                flushedAt = System.nanoTime();
            }
        }
        streams.flush();
        return written;
    }

    private void handle(TaskEntry entry, TaskStreams.RunStatuses statuses, Map<String, List<String>> finished,
                        List<Written> written) {
        if (!entry.identified()) {
            log.warn("Dropping a token without token, run and node fields: {} {}", entry, entry.fields());
            add(finished, entry);
            return;
        }
        Optional<UUID> run = entry.runId();
        BooleanSupplier live = () -> run.isEmpty() || statuses.live(run.get());
        try {
            Optional<Map<String, String>> completion = executor.complete(entry, worker, live);
            if (completion.isEmpty() || !live.getAsBoolean()) {
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

    private static Map<UUID, Integer> runShards(List<TaskEntry> entries) {
        Map<UUID, Integer> runs = new HashMap<>();
        for (TaskEntry entry : entries) {
            entry.runId().ifPresent(run -> runs.put(run, entry.shard()));
        }
        return runs;
    }

    private static void add(Map<String, List<String>> idsByStream, TaskEntry entry) {
        idsByStream.computeIfAbsent(entry.stream(), stream -> new ArrayList<>()).add(entry.id());
    }

    private record Written(TaskEntry entry, TaskStreams.SentCompletion completion) {
    }
}
