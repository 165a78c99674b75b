package io.tokenflow.engine.ir;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * Approval settings of a human node.
 *
 * @param timeout ISO-8601 duration, or {@code null} for no timeout
 * @param form    the fields the approver is shown, or {@code null} to show the payload's top-level fields
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrHuman(String title, String instructions, List<String> approvers, String timeout,
                      String escalationPolicy, List<String> escalateTo, List<String> rejectionPath,
                      IrForm form) {

    public IrHuman {
        approvers = List.copyOf(approvers);
        escalateTo = List.copyOf(escalateTo);
        rejectionPath = List.copyOf(rejectionPath);
    }
}
