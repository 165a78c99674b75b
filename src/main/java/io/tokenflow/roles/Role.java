package io.tokenflow.roles;

import java.util.List;
import java.util.Locale;

/**
 * A part of the application an instance may run, and the settings that switch its components on: a role an instance
 * leaves out has each of them set to {@code false} ({@link RolesEnvironmentPostProcessor}).
 */
public enum Role {

    /** The web UI, the REST API, webhooks and the live WebSocket ({@link WebRoleFilter} answers 404 without it). */
    WEB("tokenflow.web.enabled"),
    /** Routes completions, holds timers, signal waits, maps and child runs, fires due times and cron triggers. */
    COORDINATOR("tokenflow.coordinator.enabled", "tokenflow.triggers.enabled"),
    /** Writes the event log to PostgreSQL, snapshots counters, fails idle runs, rebuilds lost runs. */
    SUPERVISOR("tokenflow.supervisor.enabled"),
    /** The built-in task workers (function, http, transform, filter, aggregate, agents). */
    WORKERS("tokenflow.workers.enabled"),
    /** Tails the events streams for the live pages this instance serves. */
    LIVE("tokenflow.live.enabled");

    private final List<String> switches;

    Role(String... switches) {
        this.switches = List.of(switches);
    }

    /** The {@code enabled} settings of the role's components. */
    public List<String> switches() {
        return switches;
    }

    /** The role's name in {@code tokenflow.roles}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
