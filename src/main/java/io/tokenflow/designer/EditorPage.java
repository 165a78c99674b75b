package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The editor page: the workflow's latest version (the draft starts from it) and the palette by category.
 *
 * @param dsl the latest version's DSL as JSON text, handed to the canvas inside a script element (so "</" is
 *            written "<\/", which JSON reads the same)
 */
public record EditorPage(UUID id, String name, int version, Map<String, Integer> tags, String dsl,
                         Map<String, List<PaletteEntry>> palette) {

    public EditorPage {
        tags = new TreeMap<>(tags);
        palette = new LinkedHashMap<>(palette);
    }

    static EditorPage of(WorkflowDraft latest, List<PaletteEntry> entries) {
        Map<String, List<PaletteEntry>> byCategory = new LinkedHashMap<>();
        entries.forEach(entry -> byCategory.computeIfAbsent(entry.category(), category -> new ArrayList<>()).add(entry));
        String dsl = latest.dsl().toString().replace("</", "<\\/");
        return new EditorPage(latest.id(), latest.name(), latest.version(), latest.tags(), dsl, byCategory);
    }
}
