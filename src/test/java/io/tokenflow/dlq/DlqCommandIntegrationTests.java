package io.tokenflow.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.security.ApiTokenService;
import io.tokenflow.security.Scope;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar tokenflow.jar dlq ...} against a running application on a real port, with an API token, as an
 * operator would use it from a terminal.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tokenflow.security.users[0].username=oskar", "tokenflow.security.users[0].password={noop}secret-pass-1",
        "tokenflow.security.users[0].roles=operator,designer"})
@ActiveProfiles("test")
class DlqCommandIntegrationTests {

    @LocalServerPort int port;
    @Autowired ApiTokenService tokens;
    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void listsParkedTasksAndDiscardsOneFromTheCommandLine() {
        String token = tokens.issue("oskar", "cli-" + UUID.randomUUID().toString().substring(0, 6),
                Set.of(Scope.RUNS_READ, Scope.RUNS_WRITE), null).secret();
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "cli-dlq-%s", "nodes": [
                  {"id": "post", "type": "function", "config": {"function": "fail", "args": {"message": "ledger closed"}},
                   "on_failure": {"action": "dlq"}}]}""".formatted(UUID.randomUUID().toString().substring(0, 8))),
                "oskar").name();
        UUID run = starting.start(new StartRunCommand(workflow, null, null, null, null), "oskar").id();
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("select count(*) from dlq where run_id = ?")
                .param(run).query(Long.class).single() == 1);
        String id = jdbc.sql("select id::text from dlq where run_id = ?").param(run).query(String.class).single();

        assertThat(command("list", "--workflow", workflow, "--token", token)).isZero();
        assertThat(output()).contains(id, workflow, "post", "ledger closed", "1 entry");

        assertThat(command("discard", id, "--token", token)).isZero();
        assertThat(output()).contains("Discarded " + id);
        await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(jdbc.sql("select status from runs "
                + "where id = ?").param(run).query(String.class).single()));

        assertThat(command("discard", id, "--token", token)).as("a second discard").isOne();
        assertThat(errors()).contains("HTTP 409");
        assertThat(command("list", "--token", "not-a-token")).isOne();
        assertThat(command("shred", id, "--token", token)).isEqualTo(2);
        assertThat(errors()).contains("Expected list, reprocess or discard");
    }

    private int command(String... args) {
        out.reset();
        err.reset();
        return new DlqCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of("TOKENFLOW_URL", "http://localhost:" + port)).run(args);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
