package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class RunFilterTests {

    private static final UUID WORKFLOW = UUID.randomUUID();

    @Test
    void admitsRunsByStatusWorkflowAndStartTime() {
        RunFilter filter = new RunFilter("completed", "billing", "2026-11-28T09:30");
        assertThat(filter.problem()).isNull();
        assertThat(filter.sinceInstant()).isEqualTo(Instant.parse("2026-11-28T09:30:00Z"));
        assertThat(filter.admits(row("COMPLETED", "billing", "2026-11-28T09:30:00Z"))).isTrue();
        assertThat(filter.admits(row("COMPLETED", "billing", "2026-11-28T09:29:59Z"))).isFalse();
        assertThat(filter.admits(row("RUNNING", "billing", "2026-11-28T10:00:00Z"))).isFalse();
        assertThat(filter.admits(row("COMPLETED", "shipping", "2026-11-28T10:00:00Z"))).isFalse();
        assertThat(filter.params()).containsExactly(java.util.Map.entry("status", "COMPLETED"),
                java.util.Map.entry("workflow", "billing"), java.util.Map.entry("since", "2026-11-28T09:30"));
    }

    @Test
    void aDateAloneMeansItsStartAndBlankMeansAny() {
        assertThat(new RunFilter(null, " ", "2026-11-28").sinceInstant()).isEqualTo(
                Instant.parse("2026-11-28T00:00:00Z"));
        assertThat(new RunFilter("", "", "").params()).isEmpty();
    }

    @Test
    void saysWhatIsWrongWithAStatusOrAStartTime() {
        assertThat(new RunFilter("done", null, null).problem())
                .isEqualTo("Expected a status among [PENDING, RUNNING, COMPLETED, FAILED, CANCELLED], but found 'DONE'");
        assertThat(new RunFilter(null, null, "yesterday").problem()).isEqualTo("Expected 'started since' as a date "
                + "(2026-11-28) or date and time (2026-11-28T09:30), but found 'yesterday'");
    }

    private static RunListQueries.RunRow row(String status, String workflow, String created) {
        Instant at = Instant.parse(created);
        return new RunListQueries.RunRow(UUID.randomUUID(), WORKFLOW, workflow, 1, status, at, at, null, null, null);
    }
}
