package io.tokenflow.engine.ir;

import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * One executable node.
 *
 * @param type         what the engine does with it: {@code task}, {@code agent} or {@code human}
 * @param nodeType     the type as authored (e.g. {@code conditional}), kept for display and workers
 * @param worker       the worker type whose stream receives its tokens; {@code null} for human nodes
 * @param inputMapping the input template ({@code ${workflow.input.x}}, {@code ${nodes.<id>.output.y}}), or null
 * @param dependencies nodes that may send it a token (loop-backs excluded)
 * @param dependents   nodes it always emits to (static edges); branch nodes route through {@link #branch()}
 * @param references   nodes whose outputs its input mapping reads
 * @param retry        its retry policy, or {@code null} for one attempt
 * @param onFailure    what its failure does once no retry is left, or {@code null}: the run fails
 * @param timeoutMs    how long a task of it may take before it fails as transient ({@code timeout_s}), or null
 * @param limits       its own hop and fan-out limits, or {@code null} when it has none
 * @param timer        a wait node's timer, else {@code null}
 * @param signal       a signal node's wait, else {@code null}
 * @param map          its map over a list, else {@code null}
 * @param call         a workflow node's call of another workflow, else {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrNode(String id, String name, String type, String nodeType, String worker, JsonNode config,
                     JsonNode inputMapping, List<String> dependencies, List<String> dependents,
                     @JsonProperty("is_terminal") boolean isTerminal, @JsonProperty("wait_for_all") boolean waitForAll,
                     IrJoin join, IrBranch branch, IrLoop loop, IrRetry retry, IrLimits limits, IrHuman human,
                     JsonNode agent, List<String> references, IrOnFailure onFailure, Long timeoutMs,
                     IrWait timer, IrSignal signal, IrMap map, IrCall call) {

    public IrNode {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        dependencies = List.copyOf(dependencies);
        dependents = List.copyOf(dependents);
        references = references == null ? List.of() : List.copyOf(references);
    }

    /**
     * Whether the engine holds its tokens itself (a timer, a signal wait, a call of another workflow) instead of a
     * worker running them.
     */
    public boolean held() {
        return timer != null || signal != null || call != null;
    }

    /** The worker type whose stream receives the node's tasks: the node's, or for a map its elements' worker. */
    public String taskWorker() {
        return map != null ? map.itemWorker() : worker;
    }

    /** Whether a failure of this node may be tried again. */
    public boolean retries() {
        return retry != null && retry.maxAttempts() > 1;
    }

    /** Whether its tasks are kept from their dispatch, to be sent again: for a retry, or from the dead-letter queue. */
    public boolean keepsTasks() {
        return retries() || (onFailure != null && onFailure.parks());
    }

    /**
     * How the dispatching Lua step handles its tasks (the prelude's {@code dispatch_task}: kept, timed out). A map
     * node's own token goes to the engine plainly: its retry policy and time limit are its elements'
     * ({@link #workTaskKind()}).
     */
    public String taskKind() {
        return map != null ? "task" : workTaskKind();
    }

    /** How the tasks that do the node's work are dispatched: its own, or for a map node each element's. */
    public String workTaskKind() {
        String kind = keepsTasks() ? "rtask" : "task";
        return timeoutMs == null ? kind : kind + ":" + timeoutMs;
    }
}
