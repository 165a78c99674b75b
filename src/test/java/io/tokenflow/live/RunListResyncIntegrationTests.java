package io.tokenflow.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.TestWorkflows;
import io.tokenflow.designer.CreateWorkflow;
import tools.jackson.databind.json.JsonMapper;

/**
 * The runs list notices changes to its runs that no tailer saw (the supervisor wrote the rows and deleted the events
 * while nobody on this instance read the stream): the supervisor, tailers and engine are off, so only the view's own
 * resync (a change of no runs) can find them.
 */
@SpringBootTest(properties = {"tokenflow.supervisor.enabled=false", "tokenflow.live.enabled=false",
        "tokenflow.coordinator.enabled=false", "tokenflow.workers.enabled=false"})
@ActiveProfiles("test")
class RunListResyncIntegrationTests {

    private static final LiveChange RESYNC = new LiveChange(false, Set.of());

    @Autowired List<LiveView> views;
    @Autowired JdbcClient jdbc;
    @Autowired CreateWorkflow creating;

    @Test
    void drawsTheTableAgainOnlyWhenPostgresHoldsWhatThePageDoesNotShow() {
        LiveView view = views.stream().filter(candidate -> candidate.serves("runs")).findFirst().orElseThrow();
        UUID workflow = creating.create(JsonMapper.builder().build().readTree(TestWorkflows.fixture("valid/sequential",
                TestWorkflows.unique("resync"))), "test").id();
        Instant now = Instant.now();
        UUID first = run(workflow, now.minus(Duration.ofMinutes(1)));
        // the page lists this workflow's runs only: other tests' runs share the database
        LiveSubscriber page = new LiveSubscriber("runs", Map.of("workflow", workflow.toString()), null, "default", 0);
        view.check(page);
        assertThat(view.missed("runs")).isTrue();

        assertThat(view.render(page, new LiveChange(true, Set.of()))).contains(first.toString(), "running");
        assertThat(view.render(page, RESYNC)).as("nothing changed").isEmpty();

        jdbc.sql("update runs set status = 'COMPLETED', ended_at = ?, final_counter = 0 where id = ?")
                .params(Timestamp.from(now), first).update();
        assertThat(view.render(page, RESYNC)).as("a shown run ended").contains(first.toString(), "completed")
                .doesNotContain("running");
        assertThat(view.render(page, RESYNC)).as("drawn once").isEmpty();

        UUID second = run(workflow, now);
        assertThat(view.render(page, RESYNC)).as("a new run").contains(first.toString(), second.toString());
        assertThat(view.render(page, RESYNC)).as("drawn once").isEmpty();
    }

    private UUID run(UUID workflow, Instant created) {
        UUID run = UUID.randomUUID();
        jdbc.sql("insert into runs (id, workflow_id, workflow_version, status, created_at) values (?, ?, 1, 'RUNNING', ?)")
                .params(run, workflow, Timestamp.from(created)).update();
        return run;
    }
}
