package io.tokenflow.runs;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** A run's tasks parked in the dead-letter queue, as the run page reprocesses them. */
@Component
class ParkedTasks {

    private final JdbcClient jdbc;

    ParkedTasks(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The open dead-letter entry of a node of the run (the oldest, when several iterations are parked). */
    Optional<UUID> open(UUID run, String node) {
        return jdbc.sql("select id from dlq where run_id = :run and node_id = :node and resolved_at is null "
                        + "order by created_at, id limit 1")
                .param("run", run).param("node", node).query(UUID.class).optional();
    }
}
