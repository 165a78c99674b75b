package io.tokenflow.roles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.mock.env.MockEnvironment;

/** {@code tokenflow.roles}: which roles a value lists, and what a role left out switches off. */
class RolesEnvironmentPostProcessorTests {

    private final RolesEnvironmentPostProcessor roles = new RolesEnvironmentPostProcessor(new DeferredLogs());

    @Test
    void allIsEveryRoleAndAListIsItsRolesInAnyCaseAndSpacing() {
        assertThat(RolesEnvironmentPostProcessor.parse("all")).isEqualTo(EnumSet.allOf(Role.class));
        assertThat(RolesEnvironmentPostProcessor.parse(" Web, supervisor ,")).containsExactly(Role.WEB,
                Role.SUPERVISOR);
    }

    @Test
    void refusesAnUnknownRoleAnEmptyListAndAllAmongOthers() {
        assertThatThrownBy(() -> RolesEnvironmentPostProcessor.parse("web,coordinater"))
                .hasMessage("Expected tokenflow.roles to list web, coordinator, supervisor, workers, live (or all "
                        + "alone), but found coordinater");
        assertThatThrownBy(() -> RolesEnvironmentPostProcessor.parse(" , ")).hasMessageContaining("it is empty");
        assertThatThrownBy(() -> RolesEnvironmentPostProcessor.parse("all,web")).hasMessageContaining("found all");
    }

    @Test
    void switchesOffTheComponentsOfEveryRoleLeftOut() {
        MockEnvironment environment = new MockEnvironment().withProperty("tokenflow.roles", "coordinator,workers")
                .withProperty("tokenflow.supervisor.enabled", "false");
        roles.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("tokenflow.web.enabled")).isEqualTo("false");
        assertThat(environment.getProperty("tokenflow.supervisor.enabled")).isEqualTo("false");
        assertThat(environment.getProperty("tokenflow.live.enabled")).isEqualTo("false");
        assertThat(environment.getProperty("tokenflow.coordinator.enabled")).isNull();
        assertThat(environment.getProperty("tokenflow.triggers.enabled")).isNull();
        assertThat(environment.getProperty("tokenflow.workers.enabled")).isNull();
    }

    @Test
    void refusesASwitchSetOnForARoleLeftOut() {
        MockEnvironment environment = new MockEnvironment().withProperty("tokenflow.roles", "web,live")
                .withProperty("tokenflow.triggers.enabled", "true");
        assertThatThrownBy(() -> roles.postProcessEnvironment(environment, new SpringApplication()))
                .hasMessage("Expected tokenflow.triggers.enabled to be unset or false, as tokenflow.roles (web, live) "
                        + "leaves the coordinator role out, but it is true; add coordinator to tokenflow.roles or "
                        + "remove the setting");
    }

    @Test
    void leavesEverythingOnByDefault() {
        MockEnvironment environment = new MockEnvironment();
        roles.postProcessEnvironment(environment, new SpringApplication());
        for (Role role : Role.values()) {
            role.switches().forEach(setting -> assertThat(environment.getProperty(setting)).isNull());
        }
    }
}
