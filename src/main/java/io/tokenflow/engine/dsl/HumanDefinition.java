package io.tokenflow.engine.dsl;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Human approval settings: who may decide, how long they have, what happens on timeout, where a reject goes.
 *
 * @param approvers user names, or roles written {@code role:<name>}
 * @param timeout   {@code null} when the approval never times out
 * @param form      the fields the approver is shown (empty: the payload's top-level fields)
 */
public record HumanDefinition(String pointer, String title, String instructions, List<String> approvers,
                              Duration timeout, String escalationPolicy, List<String> escalateTo,
                              List<Target> rejectionPath, List<FormField> form) {

    public HumanDefinition {
        Objects.requireNonNull(pointer, "pointer");
        approvers = List.copyOf(approvers);
        escalateTo = List.copyOf(escalateTo);
        rejectionPath = List.copyOf(rejectionPath);
        form = List.copyOf(form);
    }
}
