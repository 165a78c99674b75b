package io.tokenflow.approvals;

import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

import io.tokenflow.security.Caller;
import tools.jackson.databind.json.JsonMapper;

/**
 * The model of the inbox for one person and one filter: a page of pending approvals (each with its detail's fields),
 * which one is selected, the filter's choices, and the decided ones. The page and the live topic both draw from it.
 */
@Component
class InboxModel {

    private final ApprovalQueries approvals;
    private final ApprovalForms forms;
    private final JsonMapper json;

    InboxModel(ApprovalQueries approvals, ApprovalForms forms, JsonMapper json) {
        this.approvals = approvals;
        this.forms = forms;
        this.json = json;
    }

    /** The model for request or subscription {@code params}; a filter it cannot read is named and the default used. */
    Map<String, Object> of(Principal principal, Map<String, String> params) {
        Map<String, Object> model = new LinkedHashMap<>();
        InboxFilter filter = InboxFilter.DEFAULT;
        try {
            filter = InboxFilter.of(params);
        } catch (IllegalArgumentException e) {
            model.put("filterError", e.getMessage());
        }
        Caller caller = Caller.of((Authentication) principal);
        List<InboxRow> rows = rows(approvals.inbox(filter, caller), caller);
        model.put("filter", filter);
        model.put("rows", rows.subList(0, Math.min(rows.size(), InboxFilter.PAGE_SIZE)));
        model.put("more", rows.size() > InboxFilter.PAGE_SIZE);
        model.put("selected", selected(rows, params.get("selected")));
        model.put("workflows", workflows(filter));
        model.put("liveParams", json.writeValueAsString(live(filter)));
        model.put("decided", approvals.decided(caller, 0, ApprovalQueries.LIMIT));
        model.put("limit", ApprovalQueries.LIMIT);
        return model;
    }

    private List<InboxRow> rows(List<ApprovalRecord> page, Caller caller) {
        Map<UUID, List<FormValue>> fields = forms.fields(page);
        return page.stream().map(approval -> new InboxRow(approval, fields.getOrDefault(approval.id(), List.of()),
                Approvers.allows(approval.approvers(), caller))).toList();
    }

    private static UUID selected(List<InboxRow> rows, String wanted) {
        return rows.stream().map(row -> row.approval().id()).filter(id -> id.toString().equals(wanted)).findFirst()
                .orElse(rows.isEmpty() ? null : rows.get(0).approval().id());
    }

    private List<String> workflows(InboxFilter filter) {
        List<String> names = new ArrayList<>(approvals.pendingWorkflows());
        if (filter.workflow() != null && !names.contains(filter.workflow())) {
            names.add(0, filter.workflow());
        }
        return names;
    }

    private static Map<String, String> live(InboxFilter filter) {
        Map<String, String> params = new LinkedHashMap<>(filter.params());
        if (filter.page() > 0) {
            params.put("page", Integer.toString(filter.page()));
        }
        return params;
    }
}
