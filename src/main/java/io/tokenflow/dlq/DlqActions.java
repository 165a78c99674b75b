package io.tokenflow.dlq;

import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.DeadLetters;
import io.tokenflow.coordinator.Payloads;
import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.coordinator.RunPlans;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.StorableJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reprocesses or discards a dead-letter entry: checks it is open and its run is running, then moves the run's Redis
 * state ({@link DeadLetters}); the entry's row follows from the event that move appends.
 */
@Service
public class DlqActions {

    private final DlqQueries entries;
    private final RunPlans plans;
    private final DeadLetters deadLetters;
    private final JsonMapper json;

    DlqActions(DlqQueries entries, RunPlans plans, DeadLetters deadLetters, JsonMapper json) {
        this.entries = entries;
        this.plans = plans;
        this.deadLetters = deadLetters;
        this.json = json;
    }

    /**
     * Sends the entry's task to its workers again, as attempt 1.
     *
     * @param input the input to send instead, or {@code null} for the one it had
     */
    public DlqEntry reprocess(UUID id, JsonNode input, String by) {
        String inputText = null;
        if (input != null) {
            StorableJson.check(input, "/input");
            inputText = json.writeValueAsString(input);
            if (inputText.length() > Payloads.INLINE_LIMIT) {
                throw new BadRequestException(422, "Expected an input of at most " + Payloads.INLINE_LIMIT
                        + " characters to reprocess with, but it has " + inputText.length(), "/input");
            }
        }
        DlqEntry entry = open(id);
        String text = inputText;
        return settle(entry, plan -> deadLetters.reprocess(plan, entry.token(), entry.node(), id.toString(), text, by));
    }

    /** Fails the entry's run. */
    public DlqEntry discard(UUID id, String by) {
        DlqEntry entry = open(id);
        return settle(entry, plan -> deadLetters.discard(plan, entry.token(), entry.node(), id.toString(), by));
    }

    private DlqEntry open(UUID id) {
        DlqEntry entry = entries.find(id).orElseThrow(() -> new NotFoundException("Expected a dead-letter entry " + id
                + ", but there is none"));
        if (!entry.open()) {
            throw new ConflictException("Expected dead-letter entry " + id + " to be open, but it was "
                    + entry.resolution().toLowerCase(Locale.ROOT) + " by " + entry.resolvedBy());
        }
        return entry;
    }

    private DlqEntry settle(DlqEntry entry, Function<RunPlan, DeadLetters.Outcome> move) {
        Optional<RunPlan> plan = plans.find(entry.runId());
        DeadLetters.Outcome outcome = plan.map(move).orElse(DeadLetters.Outcome.NOT_RUNNING);
        return switch (outcome) {
            case DONE -> entry;
            case NOT_RUNNING -> throw new ConflictException("Expected the run " + entry.runId() + " of dead-letter "
                    + "entry " + entry.id() + " to be running, but it has ended");
            case NOT_PARKED -> throw new ConflictException("Expected dead-letter entry " + entry.id() + " to be open, "
                    + "but it was resolved a moment ago");
        };
    }
}
