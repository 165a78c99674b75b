package io.tokenflow.engine.ir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A compiled workflow.
 *
 * @param entryNodes    nodes that receive the run's first tokens (nothing leads to them)
 * @param terminalNodes nodes after which a path may end ({@code is_terminal})
 * @param nodes         every node by id, in authoring order
 * @param inputs        the declared run inputs (a JSON Schema object), or {@code null}
 * @param deadline      the longest a run may run, or {@code null}
 * @param compensators  by node id, the task that undoes its completed work (empty when none)
 * @param compensateOn  the endings after which the compensators run by themselves: {@code failure}, {@code cancel}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkflowIr(String version, String name, List<String> entryNodes, List<String> terminalNodes,
                         Map<String, IrNode> nodes, JsonNode inputs, IrDeadline deadline,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, IrCompensator> compensators,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> compensateOn) {

    public static final String FORMAT_VERSION = "1.0";
    /** The endings after which compensators run by themselves ({@link #compensateOn}). */
    public static final String ON_FAILURE = "failure";
    public static final String ON_CANCEL = "cancel";

    public WorkflowIr {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(name, "name");
        entryNodes = List.copyOf(entryNodes);
        terminalNodes = List.copyOf(terminalNodes);
        nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        compensators = compensators == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(compensators));
        compensateOn = compensateOn == null ? List.of() : List.copyOf(compensateOn);
    }

    /** This workflow with its compensators and when they run by themselves. */
    public WorkflowIr withCompensation(Map<String, IrCompensator> newCompensators, List<String> on) {
        return new WorkflowIr(version, name, entryNodes, terminalNodes, nodes, inputs, deadline, newCompensators, on);
    }

    public IrNode node(String id) {
        IrNode node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("Expected node '" + id + "' in workflow '" + name + "', but it has none");
        }
        return node;
    }
}
