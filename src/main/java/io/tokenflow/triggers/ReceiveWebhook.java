package io.tokenflow.triggers;

import java.util.Optional;

import org.springframework.stereotype.Service;

import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.runs.StartedRun;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.JsonWording;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.TooManyRequestsException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers {@code POST /hooks/{workflow}/{trigger}}: finds the webhook trigger of the workflow's newest version,
 * authenticates the call ({@link WebhookAuthentication}) and starts that version with the body as the run's input
 * (checked against the workflow's inputs by {@link StartRun}). Every refusal is recorded ({@link TriggerRefusals}).
 */
@Service
class ReceiveWebhook {

    private static final String KEY_PATTERN = "[A-Za-z0-9._:-]{1,80}";

    private final ActiveTriggers active;
    private final TriggerSecrets secrets;
    private final WebhookAuthentication authentication;
    private final TriggerRefusals refusals;
    private final StartRun starting;
    private final JsonMapper json;

    ReceiveWebhook(ActiveTriggers active, TriggerSecrets secrets, WebhookAuthentication authentication,
                   TriggerRefusals refusals, StartRun starting, JsonMapper json) {
        this.active = active;
        this.secrets = secrets;
        this.authentication = authentication;
        this.refusals = refusals;
        this.starting = starting;
        this.json = json;
    }

    StartedRun receive(WebhookCall call, String idempotencyKey) {
        ActiveTriggers.WorkflowTriggers workflow = active.find(call.workflow()).orElseThrow(() -> refuse(call, null,
                404, "not-found", "Expected a workflow with the id or name '" + call.workflow() + "', but there is "
                        + "none", null));
        Trigger trigger = workflow.trigger(call.trigger()).filter(found -> !found.isCron()).orElseThrow(() ->
                refuse(call, workflow, 404, "not-found", "Expected a webhook trigger '" + call.trigger() + "' in the "
                        + "newest version (" + workflow.version() + ") of '" + workflow.name() + "', but it has none",
                        null));
        Optional<String> unauthentic = authentication.problem(trigger,
                secrets.find(workflow.workflowId(), trigger.id()), call);
        if (unauthentic.isPresent()) {
            throw refuse(call, workflow, 401, "unauthorized", unauthentic.get(), null);
        }
        if (idempotencyKey != null && !idempotencyKey.matches(KEY_PATTERN)) {
            throw refuse(call, workflow, 400, "bad-request", "Expected Idempotency-Key of letters, digits and ._:- "
                    + "(at most 80), but found another", "header:Idempotency-Key");
        }
        JsonNode inputs = inputs(call, workflow);
        try {
            return starting.start(new StartRunCommand(workflow.workflowId().toString(), null, workflow.version(),
                    inputs, idempotencyKey == null ? null : "webhook:" + workflow.workflowId() + ":" + trigger.id()
                            + ":" + idempotencyKey), "webhook:" + trigger.id());
        } catch (BadRequestException e) {
            throw refuse(call, workflow, e.status(), "bad-request", e.getMessage(), e.pointer());
        } catch (NotFoundException e) {
            throw refuse(call, workflow, 404, "not-found", e.getMessage(), null);
        } catch (TooManyRequestsException e) {
            // answered as any quota refusal (429 with Retry-After), and recorded as every refused call is
            refusals.record(call, workflow.workflowId(), 429, e.getMessage());
            throw e;
        }
    }

    private JsonNode inputs(WebhookCall call, ActiveTriggers.WorkflowTriggers workflow) {
        if (call.body().length == 0) {
            return json.createObjectNode();
        }
        try {
            JsonNode body = json.readTree(call.body());
            if (body.isObject()) {
                return body;
            }
            throw refuse(call, workflow, 400, "bad-request", "Expected the body to be a JSON object (the run's "
                    + "inputs), but found " + body.getNodeType().name().toLowerCase(), "");
        } catch (JacksonException e) {
            throw refuse(call, workflow, 400, "malformed-json", "Expected a well-formed JSON body, but it could not "
                    + "be read: " + JsonWording.withoutJavaNames(e.getOriginalMessage()), "");
        }
    }

    private WebhookRefusedException refuse(WebhookCall call, ActiveTriggers.WorkflowTriggers workflow, int status,
                                           String slug, String reason, String pointer) {
        refusals.record(call, workflow == null ? null : workflow.workflowId(), status, reason);
        return new WebhookRefusedException(status, slug, reason, pointer);
    }
}
