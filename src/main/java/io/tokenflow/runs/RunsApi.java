package io.tokenflow.runs;

import java.net.URI;
import java.security.Principal;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Runs: start, cancel, retry, compensate, recover, list with filters, one run's state, its event log (paged) and its replay. */
@RestController
class RunsApi {

    private static final String START_EXAMPLE = """
            {"workflow": "fan-out-fan-in", "tag": "main", "inputs": {"order_id": "o-1"}, "idempotencyKey": "order-o-1"}
            """;
    private static final java.util.Set<String> STATUSES = java.util.Set.of("PENDING", "RUNNING", "COMPLETED", "FAILED",
            "CANCELLED");

    private final StartRun starting;
    private final RunTerminator terminator;
    private final ResumeRun resuming;
    private final CompensateRun compensating;
    private final RecoverRun recovering;
    private final RunQueries queries;
    private final RunHistory history;
    private final JsonMapper json;

    RunsApi(StartRun starting, RunTerminator terminator, ResumeRun resuming, CompensateRun compensating,
            RecoverRun recovering, RunQueries queries, RunHistory history, JsonMapper json) {
        this.recovering = recovering;
        this.compensating = compensating;
        this.starting = starting;
        this.terminator = terminator;
        this.resuming = resuming;
        this.queries = queries;
        this.history = history;
        this.json = json;
    }

    @GetMapping("/api/v1/runs")
    List<RunViews.Summary> list(@RequestParam(required = false) String status,
                                @RequestParam(required = false) String workflow,
                                @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        if (status != null && !STATUSES.contains(status)) {
            throw new BadRequestException("Expected status to be one of " + STATUSES + ", but found '" + status + "'",
                    "query:status");
        }
        if (page < 0 || size < 1 || size > 500) {
            throw new BadRequestException("Expected page >= 0 and size between 1 and 500", "query:size");
        }
        return queries.list(status, workflow, page, size);
    }

    @GetMapping("/api/v1/runs/{id}")
    RunViews.Detail get(@PathVariable UUID id) {
        return queries.get(id);
    }

    @GetMapping("/api/v1/runs/{id}/events")
    RunViews.EventPage events(@PathVariable UUID id, @RequestParam(defaultValue = "0") long afterSeq,
                              @RequestParam(defaultValue = "200") int limit) {
        if (afterSeq < 0 || limit < 1 || limit > 1000) {
            throw new BadRequestException("Expected afterSeq >= 0 and limit between 1 and 1000", "query:limit");
        }
        return history.events(id, afterSeq, limit);
    }

    @GetMapping("/api/v1/runs/{id}/replay")
    RunViews.Replay replay(@PathVariable UUID id, @RequestParam(required = false) Long upToSeq) {
        if (upToSeq != null && upToSeq < 0) {
            throw new BadRequestException("Expected upToSeq >= 0, but found " + upToSeq, "query:upToSeq");
        }
        return history.replay(id, upToSeq);
    }

    @PostMapping(path = "/api/v1/runs", consumes = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(description = "The workflow (id or name), at most one of "
            + "tag and version (else its newest version), the run's inputs, an optional idempotency key",
            content = @Content(schema = @Schema(type = "object"), examples = @ExampleObject(name = "by tag",
                    value = START_EXAMPLE)))
    @ApiResponse(responseCode = "201", description = "The run started (200 and Idempotent-Replayed: true when the "
            + "idempotency key started one before: its run)")
    @ApiResponse(responseCode = "429", description = "Expected the tenant to have room for one more run in flight "
            + "and hops this minute, but its quota is used up (Retry-After says when to retry)")
    ResponseEntity<StartedRun> start(@RequestBody String body, Principal principal) {
        StartedRun run = starting.start(command(body), principal == null ? "anonymous" : principal.getName());
        if (run.replayed()) {
            return ResponseEntity.ok().header("Idempotent-Replayed", "true").body(run);
        }
        return ResponseEntity.created(URI.create("/api/v1/runs/" + run.id())).body(run);
    }

    @PostMapping("/api/v1/runs/{id}/cancel")
    ResponseEntity<Void> cancel(@PathVariable UUID id, Principal principal) {
        if (!terminator.cancel(id, principal == null ? "anonymous" : principal.getName())) {
            throw new ConflictException("Expected a running run " + id + ", but it is not running (finished, cancelled "
                    + "or unknown)");
        }
        return ResponseEntity.accepted().build();
    }

    /** Resumes a failed run from its failed node(s): same run id, its events appended (docs/failures.md). */
    @PostMapping("/api/v1/runs/{id}/retry")
    ResponseEntity<ResumeRun.Resumed> retry(@PathVariable UUID id, Principal principal) {
        return ResponseEntity.accepted().body(resuming.resume(id, principal == null ? "anonymous"
                : principal.getName()));
    }

    /** Rebuilds a running run whose Redis state was lost from its event log (docs/recovery.md; admin). */
    @PostMapping("/api/v1/runs/{id}/recover")
    ResponseEntity<RecoverRun.Recovered> recover(@PathVariable UUID id, Principal principal) {
        return ResponseEntity.accepted().body(recovering.recover(id, principal == null ? "anonymous"
                : principal.getName()));
    }

    /** Starts the compensation of an ended run: its completed nodes' compensators, in reverse completion order. */
    @PostMapping("/api/v1/runs/{id}/compensate")
    ResponseEntity<CompensateRun.Compensating> compensate(@PathVariable UUID id, Principal principal) {
        return ResponseEntity.accepted().body(compensating.compensate(id, principal == null ? "anonymous"
                : principal.getName()));
    }

    /** The members of a start; any other is refused (a misspelt idempotencyKey would start a second run). */
    private static final java.util.Set<String> START_MEMBERS = java.util.Set.of("workflow", "tag", "version",
            "inputs", "idempotencyKey");

    private StartRunCommand command(String body) {
        JsonNode request = RequestJson.object(body, START_MEMBERS);
        JsonNode version = request.get("version");
        if (version != null && !version.isNull() && !(version.isIntegralNumber() && version.canConvertToInt())) {
            throw new BadRequestException("Expected \"version\" to be a whole number from 1 to " + Integer.MAX_VALUE
                    + ", but found " + version, "/version");
        }
        return new StartRunCommand(RequestJson.text(request, "workflow"), RequestJson.text(request, "tag"),
                version == null || version.isNull() ? null : version.asInt(), request.get("inputs"),
                RequestJson.text(request, "idempotencyKey"));
    }
}
