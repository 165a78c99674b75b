package io.tokenflow.approvals;

import java.util.List;
import java.util.Locale;

import io.tokenflow.security.Caller;

/**
 * Who may decide an approval: a listed user name, or a person holding a listed {@code role:<name>}. API tokens decide
 * as their owner's user name (tokens carry scopes, not roles).
 */
final class Approvers {

    private static final String ROLE_PREFIX = "role:";

    private Approvers() {
    }

    static boolean allows(List<String> approvers, Caller caller) {
        for (String approver : approvers) {
            if (approver.startsWith(ROLE_PREFIX)) {
                String role = approver.substring(ROLE_PREFIX.length()).toUpperCase(Locale.ROOT);
                if (caller.roles().stream().anyMatch(held -> held.name().equals(role))) {
                    return true;
                }
            } else if (approver.equals(caller.username())) {
                return true;
            }
        }
        return false;
    }
}
