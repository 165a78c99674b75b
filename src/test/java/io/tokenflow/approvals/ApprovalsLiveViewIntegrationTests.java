package io.tokenflow.approvals;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.TestWorkflows;
import io.tokenflow.designer.CreateWorkflow;

/**
 * The inbox notices changes to the pending approvals that no tailer saw (the supervisor wrote the rows and deleted the
 * events while nobody on this instance read the stream): the supervisor, tailers and engine are off, so only the
 * view's own resync can find them.
 */
@SpringBootTest(properties = {"tokenflow.supervisor.enabled=false", "tokenflow.live.enabled=false",
        "tokenflow.coordinator.enabled=false", "tokenflow.workers.enabled=false"})
@ActiveProfiles("test")
class ApprovalsLiveViewIntegrationTests {

    @Autowired ApprovalsLiveView view;
    @Autowired JdbcClient jdbc;
    @Autowired CreateWorkflow creating;

    @Test
    void findsPendingApprovalsRequestedEscalatedOrDecidedUnseen() {
        view.missed(ApprovalsLiveView.TOPIC);
        assertThat(view.missed(ApprovalsLiveView.TOPIC)).as("nothing changed").isFalse();

        UUID approval = UUID.randomUUID();
        jdbc.sql("insert into approvals (id, run_id, node_id, token_id, status, created_at) "
                        + "values (?, ?, 'approve', 'tok', 'PENDING', ?)")
                .params(approval, startedRun(), Timestamp.from(Instant.now())).update();
        assertThat(view.missed(ApprovalsLiveView.TOPIC)).as("requested").isTrue();
        assertThat(view.missed(ApprovalsLiveView.TOPIC)).as("pushed once").isFalse();

        jdbc.sql("update approvals set escalation_level = 1, lock_version = lock_version + 1 where id = ?")
                .param(approval).update();
        assertThat(view.missed(ApprovalsLiveView.TOPIC)).as("escalated").isTrue();

        jdbc.sql("update approvals set status = 'APPROVED', lock_version = lock_version + 1 where id = ?")
                .param(approval).update();
        assertThat(view.missed(ApprovalsLiveView.TOPIC)).as("decided").isTrue();
        assertThat(view.missed(ApprovalsLiveView.TOPIC)).isFalse();
    }

    private UUID startedRun() {
        return TestWorkflows.runningRunRow(creating, jdbc);
    }
}
