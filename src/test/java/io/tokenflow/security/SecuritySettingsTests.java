package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.tokenflow.security.SecuritySettings.ConfiguredUser;

class SecuritySettingsTests {

    @Test
    void defaultsToNoUsersOneMinuteUseResolutionAndAThirtySecondCredentialCache() {
        SecuritySettings settings = new SecuritySettings(null, null, null);

        assertThat(settings.users()).isEmpty();
        assertThat(settings.tokens().lastUsedResolution()).isEqualTo(Duration.ofMinutes(1));
        assertThat(settings.tokens().maxLifetime()).isEqualTo(Duration.ofDays(366));
        assertThat(settings.credentialCacheTtl()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void refusesANegativeCredentialCacheTtl() {
        assertThatThrownBy(() -> new SecuritySettings(null, null, Duration.ofSeconds(-1)))
                .hasMessage("Expected tokenflow.security.credential-cache-ttl of zero or more, but got PT-1S");
    }

    @Test
    void refusesAUsernameConfiguredTwice() {
        ConfiguredUser alice = new ConfiguredUser("alice", "{noop}a", Set.of(Role.DESIGNER), null, null);

        assertThatThrownBy(() -> new SecuritySettings(List.of(alice, alice), null, null))
                .hasMessage("Expected each configured username once, but 'alice' appears twice under "
                        + "tokenflow.security.users");
    }

    @Test
    void refusesUsernamesTheUsersTableWouldRefuse() {
        assertThatThrownBy(() -> new ConfiguredUser("-alice", "{noop}a", null, null, null))
                .hasMessageStartingWith("Expected a configured username matching");
        assertThatThrownBy(() -> new ConfiguredUser("alice", " ", null, null, null))
                .hasMessage("Expected a password for configured user 'alice', but none is set");
    }

    @Test
    void neverPrintsTheConfiguredPassword() {
        assertThat(new ConfiguredUser("alice", "{noop}hunter2", Set.of(), null, null).toString()).doesNotContain("hunter2");
    }
}
