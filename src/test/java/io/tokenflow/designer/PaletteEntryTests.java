package io.tokenflow.designer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.types.BuiltInNodeTypes;

/** What the palette's entries add: a workflow node calls another workflow, or says why it cannot be added yet. */
class PaletteEntryTests {

    @Test
    void aWorkflowNodeStartsCallingTheGivenWorkflowAtItsLatestVersion() {
        Workflow billing = new Workflow(UUID.randomUUID(), "default", "billing", null, "dana", Instant.EPOCH);
        PaletteEntry entry = workflowEntry(billing);
        assertThat(entry.usable()).isTrue();
        assertThat(entry.starter()).isEqualTo("{\"type\":\"workflow\",\"config\":{},"
                + "\"workflow\":{\"name\":\"billing\",\"version\":1}}");
    }

    @Test
    void aWorkflowNodeWithNothingToCallIsUnavailableAndSaysWhy() {
        PaletteEntry entry = workflowEntry(null);
        assertThat(entry.usable()).isFalse();
        assertThat(entry.unavailable()).isEqualTo(PaletteEntry.NOTHING_TO_CALL);
        assertThat(PaletteEntry.of(BuiltInNodeTypes.get().all(), "dana", null)).filteredOn(e -> !e.usable())
                .extracting(PaletteEntry::type).containsExactly("workflow");
    }

    private static PaletteEntry workflowEntry(Workflow callable) {
        return PaletteEntry.of(BuiltInNodeTypes.get().all(), "dana", callable).stream()
                .filter(entry -> "workflow".equals(entry.type())).findFirst().orElseThrow();
    }
}
