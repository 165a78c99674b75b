package io.tokenflow.approvals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.TestWorkflows;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.security.Caller;
import io.tokenflow.security.Role;

/**
 * The inbox's filters run in SQL: one workflow's approvals, newest first or most urgent first, only the caller's, only
 * the overdue ones, 25 a page with one more to tell there is a next page. Approvals {@code 0…26} of one run: {@code i}
 * minutes old, timing out {@code 20 - i} hours from now (20…26 overdue), even ones for {@code role:approver}.
 */
@SpringBootTest(properties = {"tokenflow.supervisor.enabled=false", "tokenflow.live.enabled=false",
        "tokenflow.coordinator.enabled=false", "tokenflow.workers.enabled=false"})
@ActiveProfiles("test")
class InboxQueriesIntegrationTests {

    private static final Caller APPROVER = new Caller("ada", Set.of(Role.APPROVER), Set.of(), Optional.empty());

    @Autowired ApprovalQueries approvals;
    @Autowired JdbcClient jdbc;
    @Autowired CreateWorkflow creating;

    private String workflow;

    @BeforeEach
    void storeApprovals() {
        UUID run = TestWorkflows.runningRunRow(creating, jdbc);
        workflow = jdbc.sql("select w.name from runs r join workflows w on w.id = r.workflow_id where r.id = ?")
                .param(run).query(String.class).single();
        Instant now = Instant.now();
        for (int i = 0; i < 27; i++) {
            jdbc.sql("insert into approvals (id, run_id, node_id, token_id, status, approvers, title, created_at, "
                            + "timeout_at) values (?, ?, 'approve', ?, 'PENDING', cast(? as jsonb), ?, ?, ?)")
                    .params(UUID.randomUUID(), run, "t-" + i, i % 2 == 0 ? "[\"role:approver\"]" : "[\"bob\"]",
                            "#" + i, Timestamp.from(now.minus(Duration.ofMinutes(i))),
                            Timestamp.from(now.plus(Duration.ofHours(20 - i)))).update();
        }
    }

    @Test
    void pagesNewestFirstWithOneMoreToTellThereIsANextPage() {
        List<String> first = titles(new InboxFilter(workflow, false, false, "newest", 0));
        assertThat(first).hasSize(26).startsWith("#0", "#1").endsWith("#25");
        assertThat(titles(new InboxFilter(workflow, false, false, "newest", 1))).containsExactly("#25", "#26");
    }

    @Test
    void sortsTheMostUrgentFirstAndFiltersOverdueAndMine() {
        assertThat(titles(new InboxFilter(workflow, false, false, "urgent", 0))).startsWith("#26", "#25", "#24");
        assertThat(titles(new InboxFilter(workflow, false, true, "newest", 0)))
                .containsExactly("#20", "#21", "#22", "#23", "#24", "#25", "#26");
        assertThat(titles(new InboxFilter(workflow, true, true, "newest", 0))).containsExactly("#20", "#22", "#24",
                "#26");
        assertThat(titles(new InboxFilter(workflow + "-other", false, false, "newest", 0))).isEmpty();
    }

    @Test
    void refusesASortOrFlagItDoesNotKnow() {
        assertThatThrownBy(() -> InboxFilter.of(Map.of("sort", "oldest")))
                .hasMessage("Expected sort 'newest' or 'urgent', but found 'oldest'");
        assertThatThrownBy(() -> InboxFilter.of(Map.of("overdue", "yes")))
                .hasMessage("Expected overdue 'true' or 'false', but found 'yes'");
        assertThat(InboxFilter.of(Map.of("mine", "false", "sort", "urgent")).params())
                .containsExactly(Map.entry("mine", "false"), Map.entry("sort", "urgent"));
    }

    private List<String> titles(InboxFilter filter) {
        return approvals.inbox(filter, APPROVER).stream().map(ApprovalRecord::title).toList();
    }
}
