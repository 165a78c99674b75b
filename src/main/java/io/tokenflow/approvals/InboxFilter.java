package io.tokenflow.approvals;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the inbox lists, as its URL says: {@code workflow} (a name), {@code mine} (only approvals the person may decide;
 * the default), {@code overdue} (only those past their timeout), {@code sort} ({@code newest}, the default, or
 * {@code urgent}: closest to or furthest past the timeout first) and {@code page} (from 0).
 */
public record InboxFilter(String workflow, boolean mine, boolean overdue, String sort, int page) {

    static final int PAGE_SIZE = 25;
    static final InboxFilter DEFAULT = new InboxFilter(null, true, false, "newest", 0);

    public InboxFilter {
        workflow = workflow == null || workflow.isBlank() ? null : workflow.strip();
        sort = sort == null || sort.isBlank() ? "newest" : sort;
        if (!sort.equals("newest") && !sort.equals("urgent")) {
            throw new IllegalArgumentException("Expected sort 'newest' or 'urgent', but found '" + sort + "'");
        }
        if (page < 0) {
            throw new IllegalArgumentException("Expected page 0 or more, but found " + page);
        }
    }

    /** The filter of request or subscription parameters; refuses values it does not know. */
    static InboxFilter of(Map<String, String> params) {
        return new InboxFilter(params.get("workflow"), flag(params, "mine", true), flag(params, "overdue", false),
                params.get("sort"), page(params.get("page")));
    }

    public boolean urgent() {
        return "urgent".equals(sort);
    }

    /** The parameters that differ from the defaults, for links and the live subscription. */
    public Map<String, String> params() {
        Map<String, String> params = new LinkedHashMap<>();
        if (workflow != null) {
            params.put("workflow", workflow);
        }
        if (!mine) {
            params.put("mine", "false");
        }
        if (overdue) {
            params.put("overdue", "true");
        }
        if (urgent()) {
            params.put("sort", sort);
        }
        return params;
    }

    InboxFilter atPage(int other) {
        return new InboxFilter(workflow, mine, overdue, sort, other);
    }

    private static boolean flag(Map<String, String> params, String name, boolean otherwise) {
        String value = params.get(name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("Expected " + name + " 'true' or 'false', but found '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }

    private static int page(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Expected page to be a number, but found '" + value + "'");
        }
    }
}
