package io.tokenflow.approvals;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.security.Caller;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.RequestJson;

/** Approvals for people and scripts: the pending ones (mine, or all), the decided ones, one, and deciding one. */
@RestController
class ApprovalsApi {

    /** A page's size when the request names none: what the list returned before it had pages. */
    static final int DEFAULT_SIZE = 200;
    static final int MAX_SIZE = 500;

    private final ApprovalQueries approvals;
    private final DecideApproval decide;

    ApprovalsApi(ApprovalQueries approvals, DecideApproval decide) {
        this.approvals = approvals;
        this.decide = decide;
    }

    /**
     * Pending approvals oldest first, decided ones newest first; paged like the runs list ({@code page}, {@code size}).
     */
    @GetMapping("/api/v1/approvals")
    List<ApprovalRecord> list(@RequestParam(defaultValue = "pending") String status,
                              @RequestParam(defaultValue = "false") boolean mine,
                              @RequestParam(defaultValue = "0") int page,
                              @RequestParam(defaultValue = "" + DEFAULT_SIZE) int size, Caller caller) {
        if (page < 0) {
            throw new BadRequestException("Expected page >= 0, but found " + page, "query:page");
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new BadRequestException("Expected size between 1 and " + MAX_SIZE + ", but found " + size,
                    "query:size");
        }
        return switch (status.toLowerCase(Locale.ROOT)) {
            case "pending" -> approvals.pending(mine ? caller : null, page, size);
            case "decided" -> approvals.decided(mine ? caller : null, page, size);
            default -> throw new BadRequestException("Expected status 'pending' or 'decided', but found '" + status
                    + "'", "query:status");
        };
    }

    @GetMapping("/api/v1/approvals/{id}")
    ApprovalRecord get(@PathVariable UUID id) {
        return approvals.find(id)
                .orElseThrow(() -> new NotFoundException("Expected an approval with id " + id + ", but there is none"));
    }

    @PostMapping(path = "/api/v1/approvals/{id}/decide", consumes = MediaType.APPLICATION_JSON_VALUE)
    ApprovalRecord decide(@PathVariable UUID id, @RequestBody String body, Caller caller) {
        DecisionRequest request = RequestJson.bind(body, Set.of("decision", "comment"), DecisionRequest.class);
        return decide.decide(id, request.decision(), request.comment(), caller);
    }

    /** {@code {"decision": "approve" | "reject", "comment": "…"}}. */
    record DecisionRequest(String decision, String comment) {
    }
}
