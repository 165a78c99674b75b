package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.tokenflow.IntegrationTest;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunEvents;
import tools.jackson.databind.json.JsonMapper;

@IntegrationTest
class EventLogRowsIntegrationTests {

    @Autowired EventLogRows eventLog;
    @Autowired JdbcTemplate jdbc;
    @Autowired PlatformTransactionManager transactions;
    @Autowired JsonMapper json;

    @Test
    void keepsEveryColumnAndTheDataTextByteForByte() {
        UUID run = UUID.randomUUID();
        String pretty = "{\n\t\"text\": \"tab\\tnewline\\n quote \\\" backslash \\\\ é 😀\",\r\n  \"list\": [1, 2]\n}";
        List<RunEvent> events = RunEvents.parse("[{\"seq\":1,\"type\":\"node.completed\",\"at\":1795684453559,"
                + "\"node\":\"A\",\"token\":\"t\\\\A\",\"data\":" + pretty + "},{\"seq\":2,\"type\":\"run.completed\","
                + "\"at\":1795684453560,\"node\":null,\"token\":null,\"data\":{}}]", json);

        new TransactionTemplate(transactions).executeWithoutResult(status -> eventLog.append(Map.of(run, events)));

        List<String> rows = jdbc.query("select seq, event_type, node_id, token_id, occurred_at, data::text as data "
                + "from event_log where run_id = ? order by seq", (rs, i) -> rs.getLong("seq") + "|"
                + rs.getString("event_type") + "|" + rs.getString("node_id") + "|" + rs.getString("token_id") + "|"
                + rs.getObject("occurred_at", java.time.OffsetDateTime.class).toInstant() + "|" + rs.getString("data"),
                run);
        assertThat(rows).containsExactly(
                "1|node.completed|A|t\\A|" + Instant.ofEpochMilli(1795684453559L) + "|" + pretty,
                "2|run.completed|null|null|" + Instant.ofEpochMilli(1795684453560L) + "|{}");
    }
}
