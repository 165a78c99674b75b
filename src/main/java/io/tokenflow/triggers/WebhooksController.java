package io.tokenflow.triggers;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.runs.StartedRun;
import io.tokenflow.web.Problems;

/**
 * {@code POST /hooks/{workflow}/{trigger}}: authenticated by the trigger's secret, not by a session (no CSRF); the body
 * is the run's input. Answers 201 with the run's id, or a problem naming what is wrong.
 */
@RestController
class WebhooksController {

    private final ReceiveWebhook receiving;

    WebhooksController(ReceiveWebhook receiving) {
        this.receiving = receiving;
    }

    @PostMapping("/hooks/{workflow}/{trigger}")
    @ApiResponse(responseCode = "201", description = "The run started (200 when the Idempotency-Key started one "
            + "before: its run)")
    @ApiResponse(responseCode = "429", description = "Expected the tenant to have room for one more run, but its "
            + "quota is used up (Retry-After says when to retry)")
    ResponseEntity<Map<String, Object>> receive(@PathVariable String workflow, @PathVariable String trigger,
                                                @RequestBody(required = false) byte[] body,
                                                @RequestHeader(name = "Idempotency-Key", required = false)
                                                String idempotencyKey, HttpServletRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : new String[] {WebhookAuthentication.SECRET_HEADER, WebhookAuthentication.SIGNATURE_HEADER}) {
            if (request.getHeader(name) != null) {
                headers.put(name, request.getHeader(name));
            }
        }
        StartedRun run = receiving.receive(new WebhookCall(workflow, trigger, headers, body, request.getRemoteAddr()),
                idempotencyKey);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("run_id", run.id());
        answer.put("workflow_id", run.workflowId());
        answer.put("replayed", run.replayed());
        URI location = URI.create("/api/v1/runs/" + run.id());
        return ResponseEntity.status(run.replayed() ? HttpStatus.OK : HttpStatus.CREATED).location(location)
                .body(answer);
    }

    @ExceptionHandler(WebhookRefusedException.class)
    ResponseEntity<ProblemDetail> refused(WebhookRefusedException e) {
        HttpStatusCode status = HttpStatusCode.valueOf(e.status());
        HttpStatus known = HttpStatus.resolve(e.status());
        ProblemDetail problem = Problems.of(e.status(), e.slug(), known == null ? "Refused" : known.getReasonPhrase(),
                e.getMessage(), e.pointer() == null ? Map.of() : Map.of("pointer", e.pointer()));
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}
