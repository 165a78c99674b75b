package io.tokenflow.coordinator;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;

/**
 * What the failure and repair tests share: the whole application, an operator on its REST API with external workers
 * beside it ({@link OperatorApi}, connected before and closed after each test), and the run's event log as PostgreSQL
 * holds it.
 */
@IntegrationTest
@AutoConfigureMockMvc
abstract class OperatorTests {

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired Environment environment;

    OperatorApi api;

    @BeforeEach
    void connect() {
        api = new OperatorApi(mvc, jdbc, environment);
    }

    @AfterEach
    void disconnect() {
        api.close();
    }

    /** The types of the run's logged events, in seq order. */
    List<String> eventTypes(UUID run) {
        return jdbc.sql("select event_type from event_log where run_id = ? order by seq").param(run)
                .query(String.class).list();
    }

    /** Waits until the event log holds at least {@code count} events of the type for the run. */
    void awaitLogged(UUID run, String type, int count) {
        await().atMost(Duration.ofSeconds(40)).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? "
                + "and event_type = ?").params(run, type).query(Long.class).single() >= count);
    }
}
