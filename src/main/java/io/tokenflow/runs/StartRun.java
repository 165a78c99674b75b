package io.tokenflow.runs;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.RunStarter;
import io.tokenflow.designer.PinnedWorkflow;
import io.tokenflow.designer.PinnedWorkflows;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.tenancy.RunTenants;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.StorableJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Starts a run: pins the workflow version, checks the inputs against its declared inputs, emits the entry tokens
 * atomically, and writes the run's row before answering ({@link StartRows}), so that an answered start survives Redis
 * losing it. A start beyond its tenant's quota of runs in flight is refused ({@link RunQuotas}). A repeated
 * idempotency key returns the run it started before ({@link IdempotencyKeys}).
 */
@Service
public class StartRun {

    private static final String KEY_PATTERN = "[A-Za-z0-9._:-]{1,200}";

    private final PinnedWorkflows workflows;
    private final RunStarter starter;
    private final IdempotencyKeys idempotencyKeys;
    private final RunInputs inputs;
    private final RunIds ids;
    private final StartRows rows;
    private final RunQuotas quotas;
    private final RunTenants runTenants;
    private final RedisKeys keys;
    private final Clock clock;

    StartRun(PinnedWorkflows workflows, RunStarter starter, IdempotencyKeys idempotencyKeys, RunInputs inputs,
             StartRows rows, RunQuotas quotas, RunTenants runTenants, RedisKeys keys, Clock clock) {
        this.quotas = quotas;
        this.runTenants = runTenants;
        this.idempotencyKeys = idempotencyKeys;
        this.rows = rows;
        this.keys = keys;
        this.clock = clock;
        this.ids = new RunIds(clock);
        this.workflows = workflows;
        this.starter = starter;
        this.inputs = inputs;
    }

    public StartedRun start(StartRunCommand command, String submittedBy) {
        validate(command);
        PinnedWorkflow pinned = workflows.resolve(command.workflow(), command.tag(), command.version());
        JsonNode input = command.inputs() == null ? JsonNodeFactory.instance.objectNode() : command.inputs();
        StorableJson.check(input, "/inputs");
        inputs.check(pinned.ir().inputs(), input);
        UUID runId = ids.next(keys.nextShard());
        if (command.idempotencyKey() != null) {
            Optional<UUID> existing = idempotencyKeys.bind(command.idempotencyKey(), runId);
            if (existing.isPresent()) {
                return new StartedRun(existing.get(), pinned.workflowId(), pinned.name(), null, null, true);
            }
        }
        try {
            return quotas.admit(pinned.tenant(), () -> begin(runId, pinned, input, command, submittedBy));
        } catch (RuntimeException e) {
            if (command.idempotencyKey() != null) {
                idempotencyKeys.release(command.idempotencyKey(), runId);
            }
            throw e;
        }
    }

    /** Emits the entry tokens and writes the start's row; refusals before it leave nothing behind. */
    private StartedRun begin(UUID runId, PinnedWorkflow pinned, JsonNode input, StartRunCommand command,
                             String submittedBy) {
        starter.start(runId, pinned, input, startedData(pinned, input, command, submittedBy));
        runTenants.remember(runId, pinned.workflowId(), pinned.tenant());
        rows.record(runId, keys.shardOf(runId), pinned, input, submittedBy, command.idempotencyKey(), clock.instant());
        return new StartedRun(runId, pinned.workflowId(), pinned.name(), pinned.version(), "RUNNING", false);
    }

    private String startedData(PinnedWorkflow pinned, JsonNode input, StartRunCommand command, String submittedBy) {
        return RunStarted.data(pinned.workflowId(), pinned.version(), 0, command.tag(), input, submittedBy,
                command.idempotencyKey(), pinned.ir().entryNodes());
    }

    private static void validate(StartRunCommand command) {
        if (command.workflow() == null || command.workflow().isBlank()) {
            throw new BadRequestException("Expected \"workflow\" (an id or a name), but it is missing", "/workflow");
        }
        if (command.tag() != null && command.version() != null) {
            throw new BadRequestException("Expected either \"tag\" or \"version\", but both are given", "/version");
        }
        if (command.version() != null && command.version() < 1) {
            throw new BadRequestException("Expected \"version\" to be 1 or more, but found " + command.version(), "/version");
        }
        if (command.inputs() != null && !command.inputs().isObject()) {
            throw new BadRequestException("Expected \"inputs\" to be a JSON object", "/inputs");
        }
        if (command.idempotencyKey() != null && !command.idempotencyKey().matches(KEY_PATTERN)) {
            throw new BadRequestException("Expected \"idempotencyKey\" of letters, digits and ._:- (at most 200), but "
                    + "found '" + command.idempotencyKey() + "'", "/idempotencyKey");
        }
    }
}
