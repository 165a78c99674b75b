package io.tokenflow.roles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Reads {@code tokenflow.roles} (a comma-separated list of {@link Role} names, or {@code all}, the default) before
 * the context is built and switches off the components of every role left out, by setting their {@code enabled}
 * settings to {@code false} ahead of every other property source. A component's own {@code enabled} setting can still
 * switch it off inside a listed role; one set to {@code true} for a role left out is refused at start-up, as are an
 * unknown role and an empty list. Written as an environment post-processor (not conditions on each bean) so that each
 * component keeps the one switch it already reads.
 */
public class RolesEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String PROPERTY = "tokenflow.roles";
    static final String PROPERTY_SOURCE = "tokenflowRoles";
    private final Log log;

    public RolesEnvironmentPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(RolesEnvironmentPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Set<Role> roles = parse(environment.getProperty(PROPERTY, "all"));
        Map<String, Object> off = new LinkedHashMap<>();
        for (Role role : EnumSet.complementOf(EnumSet.copyOf(roles))) {
            for (String setting : role.switches()) {
                if (Boolean.TRUE.equals(environment.getProperty(setting, Boolean.class))) {
                    throw new IllegalStateException("Expected " + setting + " to be unset or false, as "
                            + PROPERTY + " (" + labels(roles) + ") leaves the " + role.label() + " role out, but it "
                            + "is true; add " + role.label() + " to " + PROPERTY + " or remove the setting");
                }
                off.put(setting, "false");
            }
        }
        if (!off.isEmpty()) {
            environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE, off));
        }
        log.info("Roles of this instance: " + labels(roles));
    }

    /** The roles a {@code tokenflow.roles} value lists; {@code all} lists every role. */
    static Set<Role> parse(String value) {
        List<String> names = Arrays.stream(value.split(",")).map(String::trim).filter(name -> !name.isEmpty())
                .map(name -> name.toLowerCase(Locale.ROOT)).toList();
        if (names.isEmpty()) {
            throw new IllegalStateException("Expected " + PROPERTY + " to list at least one of " + known()
                    + " (or all), but it is empty");
        }
        if (names.equals(List.of("all"))) {
            return EnumSet.allOf(Role.class);
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        List<String> unknown = new ArrayList<>();
        for (String name : names) {
            Arrays.stream(Role.values()).filter(role -> role.label().equals(name)).findFirst()
                    .ifPresentOrElse(roles::add, () -> unknown.add(name));
        }
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("Expected " + PROPERTY + " to list " + known() + " (or all alone), but "
                    + "found " + String.join(", ", unknown));
        }
        return roles;
    }

    private static String known() {
        return Arrays.stream(Role.values()).map(Role::label).collect(Collectors.joining(", "));
    }

    private static String labels(Set<Role> roles) {
        return roles.stream().map(Role::label).collect(Collectors.joining(", "));
    }

    /** After the configuration files are read, so that a role in application.yml counts. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
