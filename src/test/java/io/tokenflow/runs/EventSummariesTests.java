package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.tokenflow.live.LiveEvent;
import tools.jackson.databind.json.JsonMapper;

class EventSummariesTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void theTimelineSaysWhatHappenedToDeadLettersRetriesRecoveriesAndCompensations() {
        assertThat(line("node.parked", "{\"attempts\": 3, \"error\": {\"message\": \"card declined\"}}"))
                .isEqualTo("parked in the dead-letter queue after 3 attempt(s): card declined");
        assertThat(line("node.reprocessed", "{\"by\": \"olga\", \"input_edited\": true}"))
                .isEqualTo("reprocessed from the dead-letter queue by olga (input edited)");
        assertThat(line("node.discarded", "{\"by\": \"olga\"}"))
                .isEqualTo("discarded from the dead-letter queue by olga");
        assertThat(line("run.resumed", "{\"by\": \"olga\", \"resumes\": 12, \"redone\": {\"a\": \"b\"}}"))
                .isEqualTo("run resumed by olga from event 12 (1 to do again)");
        assertThat(line("run.recovered", "{\"by\": \"system\", \"recovers\": 9, \"reason\": \"Redis held no state "
                + "of the run\", \"resent\": [\"t1\", \"t2\"]}")).isEqualTo("run recovered from its event log by "
                + "system at event 9: Redis held no state of the run (2 sent again)");
        assertThat(line("compensation.started", "{\"by\": \"system\", \"reason\": \"failure\", "
                + "\"steps\": [\"hotel#0\", \"flight#0\"]}"))
                .isEqualTo("compensation started by system (failure): undoing hotel#0, flight#0");
        assertThat(line("compensation.failed", "{\"reason\": \"Compensator x~compensate failed\"}"))
                .isEqualTo("compensation failed: Compensator x~compensate failed");
    }

    @Test
    void theTimelineSaysWhereAQuarantinedEventWent() {
        assertThat(line("entry.quarantined", "{\"quarantine_id\": 7, \"entry_id\": \"1795751441781-0\"}"))
                .isEqualTo("lost: its stream entry 1795751441781-0 is in quarantine 7");
    }

    private static String line(String type, String data) {
        return EventSummaries.of(new LiveEvent(1, type, 0, "n", "t", JSON.readTree(data)));
    }
}
