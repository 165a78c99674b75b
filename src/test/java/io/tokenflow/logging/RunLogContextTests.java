package io.tokenflow.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class RunLogContextTests {

    @Test
    void putsTheRunsFieldsWhileOpenAndTakesThemAwayWhenClosed() {
        UUID run = UUID.fromString("01a221b2-3333-8000-8acb-21f45656d150");
        try (RunLogContext context = RunLogContext.of(run, "check", "tok-1", "audit")) {
            assertThat(MDC.getCopyOfContextMap()).containsEntry("run_id", run.toString())
                    .containsEntry("trace_id", "01a221b2333380008acb21f45656d150").containsEntry("node_id", "check")
                    .containsEntry("token_id", "tok-1").containsEntry("node_type", "audit");
        }
        assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
    }

    @Test
    void leavesOutWhatIsUnknown() {
        try (RunLogContext context = RunLogContext.of("not-a-uuid", null, null, null)) {
            assertThat(MDC.getCopyOfContextMap()).containsOnlyKeys("run_id");
        }
        try (RunLogContext context = RunLogContext.of(null, "node", "token", "type")) {
            assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
        }
    }
}
