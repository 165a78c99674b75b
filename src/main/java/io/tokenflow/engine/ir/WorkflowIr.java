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
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkflowIr(String version, String name, List<String> entryNodes, List<String> terminalNodes,
                         Map<String, IrNode> nodes, JsonNode inputs, IrDeadline deadline) {

    public static final String FORMAT_VERSION = "1.0";

    public WorkflowIr {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(name, "name");
        entryNodes = List.copyOf(entryNodes);
        terminalNodes = List.copyOf(terminalNodes);
        nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
    }

    public IrNode node(String id) {
        IrNode node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("Expected node '" + id + "' in workflow '" + name + "', but it has none");
        }
        return node;
    }
}
