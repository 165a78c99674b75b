package io.tokenflow.coordinator;

import java.util.UUID;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

import io.tokenflow.cas.CasStore;
import io.tokenflow.engine.replay.EventDataText;
import io.tokenflow.tenancy.RunTenants;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Payloads on the hot path: small ones travel inline as JSON text; large ones are stored in CAS, owned by the run's
 * tenant, and travel as a reference ({@code input_ref} on a task, {@code {"$ref": "cas://…"}} in a run's context and
 * events). The run's tenant is looked up (cached) only when a payload goes to CAS.
 */
@Component
public class Payloads {

    public static final int INLINE_LIMIT = 64 * 1024;
    private static final String REF = "$ref";

    private final CasStore cas;
    private final JsonMapper json;
    private final RunTenants tenants;

    Payloads(CasStore cas, JsonMapper json, RunTenants tenants) {
        this.cas = cas;
        this.json = json;
        this.tenants = tenants;
    }

    public JsonNode parse(String text) {
        return json.readTree(text);
    }

    public String write(JsonNode value) {
        return json.writeValueAsString(value);
    }

    public JsonNode toJson(Object value) {
        return json.valueToTree(value);
    }

    /** A reference object, {@code {"$ref": "cas://sha256:…"}}, standing for a payload kept in CAS. */
    public static String reference(String ref) {
        return "{\"" + REF + "\":" + EventDataText.quote(ref) + "}";
    }

    /** A task's input in a run: inline JSON text, or null with a CAS reference when large. */
    public TaskInput taskInput(RunPlan plan, JsonNode input) {
        return taskInput(() -> tenantOf(plan), input);
    }

    /** A task's input in a run: inline JSON text, or null with a CAS reference when large. */
    public TaskInput taskInput(UUID run, JsonNode input) {
        return taskInput(() -> tenants.requireOfRun(run), input);
    }

    private TaskInput taskInput(Supplier<String> tenant, JsonNode input) {
        String text = write(input);
        return text.length() <= INLINE_LIMIT ? new TaskInput(text, null)
                : new TaskInput(null, cas.putJson(tenant.get(), input));
    }

    /** How an output is kept in the run's context: its JSON text, or a reference object when large. */
    public String contextValue(RunPlan plan, String outputText, String outputRef) {
        if (outputRef != null) {
            return reference(outputRef);
        }
        if (outputText.length() <= INLINE_LIMIT) {
            return outputText;
        }
        return reference(cas.put(tenantOf(plan), outputText.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "application/json"));
    }

    /** The tenant whose CAS a run's large payloads go to: its workflow's. */
    String tenantOf(RunPlan plan) {
        return tenants.requireOfWorkflow(plan.workflow().workflowId());
    }

    /** The output a context value stands for, loading it from CAS when it is a reference. */
    public JsonNode fromContext(String stored) {
        if (stored == null) {
            return null;
        }
        JsonNode value = parse(stored);
        if (value.isObject() && value.size() == 1 && value.has(REF) && CasStore.isReference(value.get(REF).asString())) {
            return cas.getJson(value.get(REF).asString());
        }
        return value;
    }

    /** Input of a task: exactly one of {@code inline} (JSON text) and {@code reference}. */
    public record TaskInput(String inline, String reference) {
    }
}
