package io.tokenflow.dlq;

import java.security.Principal;
import java.util.List;
import java.util.UUID;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;

/**
 * The dead-letter queue over REST: list with filters, reprocess (optionally with an edited input), discard. A move
 * answers 202: the entry's row records it once the supervisor has written the event (within a fraction of a second).
 */
@RestController
class DlqApi {

    private final DlqQueries entries;
    private final DlqActions actions;

    DlqApi(DlqQueries entries, DlqActions actions) {
        this.entries = entries;
        this.actions = actions;
    }

    @GetMapping("/api/v1/dlq")
    List<DlqEntry> list(@RequestParam(required = false) String status, @RequestParam(required = false) String workflow,
                        @RequestParam(required = false) String node, @RequestParam(required = false) String error) {
        return entries.list(DlqFilter.of(status, workflow, node, error));
    }

    @GetMapping("/api/v1/dlq/{id}")
    DlqEntry get(@PathVariable UUID id) {
        return entries.find(id).orElseThrow(() -> new NotFoundException("Expected a dead-letter "
                + "entry " + id + ", but there is none"));
    }

    /** {@code {"input": {...}}} (optional) replaces the task's input. */
    @PostMapping("/api/v1/dlq/{id}/reprocess")
    ResponseEntity<DlqEntry> reprocess(@PathVariable UUID id, @RequestBody(required = false) String body,
                                       Principal principal) {
        JsonNode input = null;
        if (body != null && !body.isBlank()) {
            input = RequestJson.object(body, java.util.Set.of("input")).get("input");
        }
        return ResponseEntity.accepted().body(actions.reprocess(id, input, name(principal)));
    }

    @PostMapping("/api/v1/dlq/{id}/discard")
    ResponseEntity<DlqEntry> discard(@PathVariable UUID id, Principal principal) {
        return ResponseEntity.accepted().body(actions.discard(id, name(principal)));
    }

    private static String name(Principal principal) {
        return principal == null ? "anonymous" : principal.getName();
    }
}
