package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RolesAndScopesTests {

    @Test
    void designerMayUseWorkflowScopesAndReadAndWriteRuns() {
        assertThat(Role.DESIGNER.allowedScopes()).containsExactlyInAnyOrder(
                Scope.WORKFLOWS_READ, Scope.WORKFLOWS_WRITE, Scope.RUNS_READ, Scope.RUNS_WRITE, Scope.TOKENS_MANAGE);
    }

    @Test
    void operatorMayUseEveryRunScopeSendSignalsAndReadWorkflowsAndApprovals() {
        assertThat(Role.OPERATOR.allowedScopes()).containsExactlyInAnyOrder(
                Scope.RUNS_READ, Scope.RUNS_WRITE, Scope.RUNS_PATCH, Scope.WORKFLOWS_READ, Scope.APPROVALS_READ,
                Scope.SIGNALS_SEND, Scope.TOKENS_MANAGE);
    }

    @Test
    void approverMayUseApprovalScopesAndReadRunsAndWorkflows() {
        assertThat(Role.APPROVER.allowedScopes()).containsExactlyInAnyOrder(
                Scope.APPROVALS_READ, Scope.APPROVALS_DECIDE, Scope.RUNS_READ, Scope.WORKFLOWS_READ,
                Scope.TOKENS_MANAGE);
    }

    @Test
    void adminMayUseEveryScope() {
        assertThat(Role.ADMIN.allowedScopes()).containsExactlyInAnyOrder(Scope.values());
    }

    @Test
    void severalRolesAllowTheUnionOfTheirScopes() {
        assertThat(Role.scopesAllowedFor(List.of(Role.DESIGNER, Role.APPROVER))).containsExactlyInAnyOrder(
                Scope.WORKFLOWS_READ, Scope.WORKFLOWS_WRITE, Scope.RUNS_READ, Scope.RUNS_WRITE,
                Scope.APPROVALS_READ, Scope.APPROVALS_DECIDE, Scope.TOKENS_MANAGE);
        assertThat(Role.scopesAllowedFor(Set.of())).isEmpty();
    }

    @ParameterizedTest(name = "{0} is granted by {1}")
    @CsvSource(delimiter = '|', textBlock = """
            workflows:read   | ROLE_DESIGNER ROLE_OPERATOR ROLE_APPROVER ROLE_ADMIN SCOPE_workflows:read
            workflows:write  | ROLE_DESIGNER ROLE_ADMIN SCOPE_workflows:write
            runs:read        | ROLE_DESIGNER ROLE_OPERATOR ROLE_APPROVER ROLE_ADMIN SCOPE_runs:read
            runs:write       | ROLE_DESIGNER ROLE_OPERATOR ROLE_ADMIN SCOPE_runs:write
            runs:patch       | ROLE_OPERATOR ROLE_ADMIN SCOPE_runs:patch
            approvals:read   | ROLE_OPERATOR ROLE_APPROVER ROLE_ADMIN SCOPE_approvals:read
            approvals:decide | ROLE_APPROVER ROLE_ADMIN SCOPE_approvals:decide
            tokens:manage    | ROLE_DESIGNER ROLE_OPERATOR ROLE_APPROVER ROLE_ADMIN SCOPE_tokens:manage
            admin            | ROLE_ADMIN SCOPE_admin
            """)
    void eachScopeIsGrantedByItsOwnAuthorityAndTheRolesAllowingIt(String scope, String authorities) {
        assertThat(Scope.fromValue(scope).orElseThrow().grantingAuthorities())
                .containsExactlyInAnyOrder(authorities.split(" "));
    }

    @Test
    void readsScopesAndRolesFromTheirWrittenForms() {
        assertThat(Scope.fromValue("runs:patch")).contains(Scope.RUNS_PATCH);
        assertThat(Scope.fromValue("runs:*")).isEmpty();
        assertThat(Scope.fromAuthority("SCOPE_approvals:decide")).contains(Scope.APPROVALS_DECIDE);
        assertThat(Scope.fromAuthority("ROLE_ADMIN")).isEmpty();
        assertThat(Role.fromId("Operator")).contains(Role.OPERATOR);
        assertThat(Role.fromAuthority("ROLE_APPROVER")).contains(Role.APPROVER);
        assertThat(Role.fromId("auditor")).isEmpty();
    }

    @Test
    void namesAuthoritiesAsSpringSecurityExpects() {
        assertThat(Role.DESIGNER.authority()).isEqualTo("ROLE_DESIGNER");
        assertThat(Role.DESIGNER.id()).isEqualTo("designer");
        assertThat(Scope.RUNS_READ.authority()).isEqualTo("SCOPE_runs:read");
        assertThat(EnumSet.allOf(Scope.class)).extracting(Scope::value).containsExactly("workflows:read",
                "workflows:write", "runs:read", "runs:write", "runs:patch", "approvals:read", "approvals:decide",
                "signals:send", "tokens:manage", "admin");
    }
}
