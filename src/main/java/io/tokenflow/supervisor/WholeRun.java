package io.tokenflow.supervisor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunStarted;
import tools.jackson.databind.JsonNode;

/**
 * A run whose whole life is in one batch: its {@code run.started} (seq 1), every event up to its ending with no seq
 * missing, and the ending. Short runs often are (a fan-out/fan-in of no-op nodes takes milliseconds, a batch covers
 * what arrived while the previous one was written), and their {@code runs} row can then be written once, ended.
 *
 * @param outputs the outputs of its terminal completions, by node, as {@link RunRows#terminalOutputs} collects them
 */
record WholeRun(RunStarted started, RunEnding ending, Map<String, JsonNode> outputs) {

    /** The runs among {@code started} (runs whose {@code run.started} is in the entries) whose whole life they hold. */
    static Map<UUID, WholeRun> of(List<EventsEntry> entries, Set<UUID> started) {
        Map<UUID, TreeMap<Long, RunEvent>> bySeq = new LinkedHashMap<>();
        entries.stream().filter(entry -> started.contains(entry.run())).forEach(entry -> entry.events().forEach(event ->
                bySeq.computeIfAbsent(entry.run(), run -> new TreeMap<>()).putIfAbsent(event.seq(), event)));
        Map<UUID, WholeRun> whole = new LinkedHashMap<>();
        bySeq.forEach((run, events) -> of(events).ifPresent(life -> whole.put(run, life)));
        return whole;
    }

    private static Optional<WholeRun> of(TreeMap<Long, RunEvent> events) {
        if (!(events.get(1L) instanceof RunStarted started)) {
            return Optional.empty();
        }
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        long expected = 1;
        for (RunEvent event : events.values()) {
            if (event.seq() != expected++) {
                return Optional.empty();
            }
            if (event instanceof NodeCompleted done && done.terminal()) {
                outputs.put(done.node(), done.output());
            }
            if (event instanceof RunEnding ending) {
                return Optional.of(new WholeRun(started, ending, outputs));
            }
        }
        return Optional.empty();
    }
}
