package io.tokenflow.triggers;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.tenancy.CurrentTenant;
import tools.jackson.databind.json.JsonMapper;

/**
 * The active triggers: those of each workflow's newest version (an archived workflow has none). A workflow's
 * triggers are read once per version and kept: versions are immutable. A workflow whose newest version cannot be read
 * is left out (logged once), so it stops no other workflow's schedules.
 */
@Component
class ActiveTriggers {

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private static final Log log = LogFactory.getLog(ActiveTriggers.class);

    private final Map<UUID, WorkflowTriggers> cache = new ConcurrentHashMap<>();
    private final Set<Newest> unreadable = ConcurrentHashMap.newKeySet();

    ActiveTriggers(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Every workflow whose newest version declares triggers. */
    List<WorkflowTriggers> all() {
        List<WorkflowTriggers> active = new ArrayList<>();
        for (Newest newest : jdbc.sql("select id, latest_version from workflows where archived_at is null")
                .query(Newest.class).list()) {
            try {
                WorkflowTriggers workflow = load(newest);
                if (!workflow.triggers().isEmpty()) {
                    active.add(workflow);
                }
            } catch (RuntimeException e) {
                // one workflow that cannot be read must not stop every other workflow's schedules (told once)
                if (unreadable.add(newest)) {
                    log.error("Left the triggers of workflow " + newest.id() + " out: its version "
                            + newest.latestVersion() + " could not be read", e);
                }
            }
        }
        return active;
    }

    /**
     * The workflow of the current tenant by id or name, with the triggers of its newest version. A request acting for
     * no tenant (a webhook call) finds any tenant's workflow by id, and by name the default tenant's (names are unique
     * only within a tenant).
     */
    Optional<WorkflowTriggers> find(String reference) {
        return jdbc.sql("select id, latest_version from workflows where archived_at is null and ("
                        + "(cast(:tenant as text) is null and (id::text = :reference or (name = :reference and "
                        + "tenant_id = '" + CurrentTenant.DEFAULT + "'))) "
                        + "or (tenant_id = :tenant and (id::text = :reference or name = :reference)))")
                .param("reference", reference).param("tenant", CurrentTenant.orNull()).query(Newest.class)
                .optional().map(this::load);
    }

    /** Loaded after the query that found it: a query inside another's row mapper would hold two connections. */
    private WorkflowTriggers load(Newest newest) {
        UUID workflowId = newest.id();
        int version = newest.latestVersion();
        WorkflowTriggers known = cache.get(workflowId);
        if (known != null && known.version() == version) {
            return known;
        }
        WorkflowTriggers loaded = jdbc.sql("select w.name, v.created_at, v.dsl::text as dsl from workflows w join "
                        + "workflow_versions v on v.workflow_id = w.id where w.id = :id and v.version = :version")
                .param("id", workflowId).param("version", version)
                .query((rs, i) -> new WorkflowTriggers(workflowId, rs.getString("name"), version,
                        rs.getTimestamp("created_at").toInstant(), Trigger.of(json.readTree(rs.getString("dsl")))))
                .single();
        cache.put(workflowId, loaded);
        return loaded;
    }

    /** A workflow's id and newest version number. */
    record Newest(UUID id, int latestVersion) {
    }

    /**
     * A workflow's newest version and its triggers.
     *
     * @param since when that version was saved: a cron trigger that never fired counts its ticks from then
     */
    record WorkflowTriggers(UUID workflowId, String name, int version, Instant since, List<Trigger> triggers) {

        WorkflowTriggers {
            triggers = List.copyOf(triggers);
        }

        Optional<Trigger> trigger(String id) {
            return Trigger.find(triggers, id);
        }
    }
}
