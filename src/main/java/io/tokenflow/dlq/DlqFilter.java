package io.tokenflow.dlq;

import java.util.Locale;

import io.tokenflow.web.BadRequestException;

/**
 * What the dead-letter list shows.
 *
 * @param open {@code true} open entries, {@code false} resolved ones, {@code null} both
 */
record DlqFilter(Boolean open, String workflow, String node, String error) {

    static DlqFilter of(String status, String workflow, String node, String error) {
        String wanted = status == null || status.isBlank() ? "open" : status.trim().toLowerCase(Locale.ROOT);
        Boolean open = switch (wanted) {
            case "open" -> Boolean.TRUE;
            case "resolved" -> Boolean.FALSE;
            case "all" -> null;
            default -> throw new BadRequestException("Expected status open, resolved or all, but found '" + status
                    + "'", "query:status");
        };
        return new DlqFilter(open, blankless(workflow), blankless(node), blankless(error));
    }

    private static String blankless(String text) {
        return text == null ? "" : text.strip();
    }
}
