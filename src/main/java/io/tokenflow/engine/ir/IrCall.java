package io.tokenflow.engine.ir;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A workflow node's call: the engine holds the node's token, starts a run of the called workflow at a pinned version
 * or tag (the tag resolved when the child starts) with the node's input as its inputs, and completes the node with
 * the child's outputs when the child completes, or fails it when the child fails or is cancelled.
 *
 * @param workflow the called workflow's id or name
 * @param version  the pinned version, or {@code null} when {@code tag} pins it
 * @param tag      the pinned tag, or {@code null} when {@code version} pins it
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrCall(String workflow, Integer version, String tag) {

    /** The node type (and engine stream) of workflow nodes. */
    public static final String NODE_TYPE = "workflow";

    public IrCall {
        Objects.requireNonNull(workflow, "workflow");
        if ((version == null) == (tag == null)) {
            throw new IllegalArgumentException("Expected a version or a tag, but found " + version + " and " + tag);
        }
    }

    /** How the pin reads in messages: {@code billing v3} or {@code billing@prod}. */
    public String pin() {
        return version != null ? workflow + " v" + version : workflow + "@" + tag;
    }
}
