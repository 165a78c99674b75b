package io.tokenflow.runs;

import java.net.URI;
import java.security.Principal;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Starting and cancelling runs. */
@RestController
class RunsApi {

    private final StartRun starting;
    private final RunTerminator terminator;
    private final JsonMapper json;

    RunsApi(StartRun starting, RunTerminator terminator, JsonMapper json) {
        this.starting = starting;
        this.terminator = terminator;
        this.json = json;
    }

    @PostMapping(path = "/api/v1/runs", consumes = MediaType.APPLICATION_JSON_VALUE)
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

    private StartRunCommand command(String body) {
        JsonNode request;
        try {
            request = json.readTree(body);
        } catch (JacksonException e) {
            throw new BadRequestException("Expected a JSON object, but " + e.getOriginalMessage(), "");
        }
        if (!request.isObject()) {
            throw new BadRequestException("Expected a JSON object {workflow, tag | version, inputs, idempotencyKey}", "");
        }
        JsonNode version = request.get("version");
        if (version != null && !version.isNull() && !version.isIntegralNumber()) {
            throw new BadRequestException("Expected \"version\" to be a whole number, but found " + version, "/version");
        }
        return new StartRunCommand(text(request, "workflow"), text(request, "tag"),
                version == null || version.isNull() ? null : version.asInt(), request.get("inputs"),
                text(request, "idempotencyKey"));
    }

    private static String text(JsonNode request, String field) {
        JsonNode value = request.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw new BadRequestException("Expected \"" + field + "\" to be a string, but found " + value, "/" + field);
        }
        return value.asString();
    }
}
