package io.tokenflow.signing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.security.AuditLog;
import io.tokenflow.security.Caller;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;

/**
 * Worker keys (admin): create one per external worker (the secret is shown once), list them (never the secrets),
 * revoke one, and rotate the key this application's own components sign with. Rotating a worker's key without
 * downtime: create a new key, move the worker to it, revoke the old one.
 */
@RestController
@RequestMapping("/api/v1/worker-keys")
class WorkerKeysApi {

    private final WorkerKeys keys;
    private final AuditLog audit;

    WorkerKeysApi(WorkerKeys keys, AuditLog audit) {
        this.keys = keys;
        this.audit = audit;
    }

    /** Body: {@code name}, and optionally {@code nodeTypes}; any other member is refused (it would be ignored). */
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<CreatedWorkerKey> create(@RequestBody String text, Caller caller, HttpServletRequest http) {
        JsonNode body = RequestJson.object(text, Set.of("name", "nodeTypes"));
        JsonNode name = body.path("name");
        JsonNode types = body.path("nodeTypes");
        if (!types.isMissingNode() && !types.isNull() && !types.isArray()) {
            throw new BadRequestException("Expected nodeTypes to be an array of node type names, but found " + types,
                    "/nodeTypes");
        }
        List<String> nodeTypes = null;
        if (types.isArray()) {
            nodeTypes = new ArrayList<>();
            for (JsonNode type : types) {
                nodeTypes.add(type.isString() ? type.asString() : null);
            }
        }
        CreatedWorkerKey created = keys.create(name.isString() ? name.asString() : null, nodeTypes,
                caller.username());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("name", created.name());
        details.put("tenant", created.tenant());
        details.put("nodeTypes", created.nodeTypes() == null ? "every type" : created.nodeTypes());
        audit.record(caller.username(), "worker-key.created", created.id(), details, http.getRemoteAddr());
        return ResponseEntity.status(HttpStatus.CREATED).cacheControl(CacheControl.noStore()).body(created);
    }

    @GetMapping
    List<WorkerKeySummary> list() {
        return keys.list();
    }

    @DeleteMapping("/{id}")
    WorkerKeySummary revoke(@PathVariable String id, Caller caller, HttpServletRequest http) {
        WorkerKeySummary revoked = keys.revoke(id);
        audit.record(caller.username(), "worker-key.revoked", id, Map.of("name", revoked.name()),
                http.getRemoteAddr());
        return revoked;
    }

    @PostMapping("/built-in/rotate")
    WorkerKeySummary rotateBuiltIn(Caller caller, HttpServletRequest http) {
        WorkerKeySummary rotated = keys.rotateBuiltIn(caller.username());
        audit.record(caller.username(), "worker-key.rotated", rotated.id(), Map.of("builtIn", true),
                http.getRemoteAddr());
        return rotated;
    }
}
