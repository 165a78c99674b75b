package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;

class CallerTests {

    @Test
    void personMayDoWhatTheirRolesAllow() {
        var signedIn = UsernamePasswordAuthenticationToken.authenticated("olga", null,
                AuthorityUtils.createAuthorityList("ROLE_OPERATOR", "FACTOR_PASSWORD"));

        Caller caller = Caller.of(signedIn);

        assertThat(caller.username()).isEqualTo("olga");
        assertThat(caller.roles()).containsExactly(Role.OPERATOR);
        assertThat(caller.can(Scope.RUNS_PATCH)).isTrue();
        assertThat(caller.can(Scope.WORKFLOWS_WRITE)).isFalse();
        assertThat(caller.isToken()).isFalse();
    }

    @Test
    void tokenMayDoOnlyWhatItsScopesAllow() {
        UUID id = UUID.randomUUID();
        Caller caller = Caller.of(ApiTokenAuthentication.verified("olga", id, Set.of(Scope.RUNS_READ), "default"));

        assertThat(caller.username()).isEqualTo("olga");
        assertThat(caller.roles()).isEmpty();
        assertThat(caller.can(Scope.RUNS_READ)).isTrue();
        assertThat(caller.can(Scope.RUNS_PATCH)).isFalse();
        assertThat(caller.token()).contains(id);
    }

    @Test
    void tokenCallerCannotRequestScopesItDoesNotHold() {
        Caller caller = Caller.of(ApiTokenAuthentication.verified("olga", UUID.randomUUID(), Set.of(Scope.RUNS_READ),
                "default"));
        TokenRequest request = new TokenRequest("ci", List.of("runs:read", "runs:patch"), null, null);

        assertThatThrownBy(() -> request.scopesFor(caller))
                .isInstanceOf(TokenRequestRejectedException.class)
                .hasMessage("Expected scopes that the calling token holds [runs:read], but 'runs:patch' is not among them");
    }

    @Test
    void refusesUnknownScopeNamingIt() {
        Caller caller = Caller.of(UsernamePasswordAuthenticationToken.authenticated("ada", null,
                AuthorityUtils.createAuthorityList("ROLE_ADMIN")));

        assertThatThrownBy(() -> new TokenRequest("ci", List.of("runs:read", "runs:*"), null, null).scopesFor(caller))
                .isInstanceOf(TokenRequestRejectedException.class)
                .hasMessageContaining("but got 'runs:*'");
    }
}
