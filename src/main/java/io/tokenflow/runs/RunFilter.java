package io.tokenflow.runs;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs page's filters, as the URL's query gives them; blank means any.
 *
 * @param status   one of {@link #STATUSES}
 * @param workflow a workflow's name or id
 * @param since    runs created at or after this UTC date ({@code 2026-11-28}) or date and time
 *                 ({@code 2026-11-28T09:30}, as a {@code datetime-local} field sends it)
 */
record RunFilter(String status, String workflow, String since) {

    static final List<String> STATUSES = List.of("PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED");

    RunFilter {
        status = status == null || status.isBlank() ? null : status.trim().toUpperCase(Locale.ROOT);
        workflow = workflow == null || workflow.isBlank() ? null : workflow.trim();
        since = since == null || since.isBlank() ? null : since.trim();
    }

    /** Why the filter cannot be applied, or {@code null}. */
    String problem() {
        if (status != null && !STATUSES.contains(status)) {
            return "Expected a status among " + STATUSES + ", but found '" + status + "'";
        }
        if (since != null && sinceInstant() == null) {
            return "Expected 'started since' as a date (2026-11-28) or date and time (2026-11-28T09:30), but found '"
                    + since + "'";
        }
        return null;
    }

    /** The start of {@link #since} as an instant (UTC), or {@code null} when there is none or it is unreadable. */
    Instant sinceInstant() {
        if (since == null) {
            return null;
        }
        try {
            return since.length() <= 10 ? LocalDate.parse(since).atStartOfDay().toInstant(ZoneOffset.UTC)
                    : LocalDateTime.parse(since).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Whether a run with this status, workflow (name or id) and creation time passes. */
    boolean admits(RunListQueries.RunRow row) {
        return (status == null || status.equals(row.status())) && admitsWorkflow(row.workflowName(),
                row.workflowId().toString()) && admitsCreation(row.createdAt());
    }

    /** Whether a run of this workflow (name or id) passes, whatever its status. */
    boolean admitsWorkflow(String workflowName, String workflowId) {
        return workflow == null || workflow.equals(workflowName) || workflow.equals(workflowId);
    }

    private boolean admitsCreation(Instant createdAt) {
        Instant from = sinceInstant();
        return from == null || createdAt == null || !createdAt.isBefore(from);
    }

    /** The filters as query parameters (blank ones left out): for links, and the live page's subscription. */
    public Map<String, String> params() {
        Map<String, String> params = new LinkedHashMap<>();
        putIfSet(params, "status", status);
        putIfSet(params, "workflow", workflow);
        putIfSet(params, "since", since);
        return params;
    }

    private static void putIfSet(Map<String, String> params, String name, String value) {
        if (value != null) {
            params.put(name, value);
        }
    }
}
