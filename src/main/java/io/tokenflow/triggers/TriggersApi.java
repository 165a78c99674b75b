package io.tokenflow.triggers;

import java.security.Principal;
import java.util.List;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.NotFoundException;

/** A workflow's triggers: the active ones with their next fire, a webhook's secret (issued anew), refused calls. */
@RestController
class TriggersApi {

    private final TriggerViews views;
    private final TriggerSecrets secrets;
    private final TriggerRefusals refusals;

    TriggersApi(TriggerViews views, TriggerSecrets secrets, TriggerRefusals refusals) {
        this.views = views;
        this.secrets = secrets;
        this.refusals = refusals;
    }

    @GetMapping("/api/v1/workflows/{workflow}/triggers")
    List<TriggerViews.TriggerView> list(@PathVariable String workflow) {
        return views.list(views.workflow(workflow), ServletUriComponentsBuilder.fromCurrentContextPath().toUriString());
    }

    /** Issues a new secret for a webhook trigger (the old one stops working); it is shown only in this answer. */
    @PostMapping("/api/v1/workflows/{workflow}/triggers/{trigger}/secret")
    Map<String, String> rotateSecret(@PathVariable String workflow, @PathVariable String trigger, Principal principal) {
        ActiveTriggers.WorkflowTriggers found = views.workflow(workflow);
        Trigger webhook = found.trigger(trigger).filter(candidate -> !candidate.isCron())
                .orElseThrow(() -> new NotFoundException("Expected a webhook trigger '" + trigger + "' in the newest "
                        + "version (" + found.version() + ") of '" + found.name() + "', but it has none"));
        String secret = secrets.rotate(found.workflowId(), webhook.id(), webhook.auth(),
                principal == null ? "anonymous" : principal.getName());
        return Map.of("trigger", webhook.id(), "auth", webhook.auth(), "secret", secret, "header",
                "hmac".equals(webhook.auth()) ? WebhookAuthentication.SIGNATURE_HEADER
                        : WebhookAuthentication.SECRET_HEADER);
    }

    @GetMapping("/api/v1/workflows/{workflow}/triggers/refusals")
    List<TriggerRefusals.Refusal> refusals(@PathVariable String workflow,
                                           @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > 1000) {
            throw new BadRequestException("Expected limit between 1 and 1000, but found " + limit, "query:limit");
        }
        return refusals.recent(views.workflow(workflow).workflowId(), limit);
    }
}
