package io.tokenflow.signing;

import java.util.List;
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

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<CreatedWorkerKey> create(@RequestBody WorkerKeyRequest request, Caller caller,
                                            HttpServletRequest http) {
        CreatedWorkerKey created = keys.create(request.name(), caller.username());
        audit.record(caller.username(), "worker-key.created", created.id(), Map.of("name", created.name()),
                http.getRemoteAddr());
        return ResponseEntity.status(HttpStatus.CREATED).cacheControl(CacheControl.noStore()).body(created);
    }

    /** What creating a key takes: a name to tell the worker by. */
    record WorkerKeyRequest(String name) {
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
