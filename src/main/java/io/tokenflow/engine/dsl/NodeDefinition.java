package io.tokenflow.engine.dsl;

import java.util.Objects;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One node as authored. Optional parts are {@code null} when absent.
 *
 * @param pointer where the node sits in the document, e.g. {@code /nodes/3}
 * @param input   the input mapping (any JSON; strings may hold {@code ${...}} references), or {@code null}
 * @param onFailure what its failure does once no retry is left, or {@code null} (the run fails)
 * @param timeoutS  how long a task of it may take, in seconds, or {@code null}
 * @param timer     a wait node's timer, or {@code null}
 * @param signal    a signal node's wait, or {@code null}
 * @param map       its map over a list, or {@code null}
 * @param call      a workflow node's call of another workflow, or {@code null}
 */
public record NodeDefinition(String pointer, String id, String type, String name, ObjectNode config, JsonNode input,
                             BranchDefinition branch, LoopDefinition loop, Boolean waitForAll,
                             JsonNode retry, JsonNode limits, HumanDefinition human, JsonNode agent,
                             OnFailureDefinition onFailure, Double timeoutS, WaitDefinition timer,
                             SignalDefinition signal, MapDefinition map, CallDefinition call) {

    public NodeDefinition {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(config, "config");
    }

    public String at(String member) {
        return pointer + "/" + member;
    }

    public NodeDefinition withType(String newType, ObjectNode newConfig) {
        return new NodeDefinition(pointer, id, newType, name, newConfig, input, branch, loop, waitForAll,
                retry, limits, human, agent, onFailure, timeoutS, timer, signal, map, call);
    }

    public NodeDefinition withBranch(BranchDefinition newBranch) {
        return new NodeDefinition(pointer, id, type, name, config, input, newBranch, loop, waitForAll,
                retry, limits, human, agent, onFailure, timeoutS, timer, signal, map, call);
    }

    public NodeDefinition withOnFailure(OnFailureDefinition newOnFailure) {
        return new NodeDefinition(pointer, id, type, name, config, input, branch, loop, waitForAll,
                retry, limits, human, agent, newOnFailure, timeoutS, timer, signal, map, call);
    }

    public NodeDefinition withLoop(LoopDefinition newLoop) {
        return new NodeDefinition(pointer, id, type, name, config, input, branch, newLoop, waitForAll,
                retry, limits, human, agent, onFailure, timeoutS, timer, signal, map, call);
    }
}
