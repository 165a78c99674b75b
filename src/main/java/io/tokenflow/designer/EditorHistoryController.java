package io.tokenflow.designer;

import java.security.Principal;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.tokenflow.engine.patch.JsonPatch;
import io.tokenflow.web.BadRequestException;

/**
 * The editor's stored-state regions: the history (versions with who, when and patch; tags), the diff of two versions,
 * and the run form of the latest version. They refresh on the {@code workflowSaved} event the editor sends.
 */
@Controller
class EditorHistoryController {

    private static final String EDITOR = "designer/editor";

    private final WorkflowQueries queries;
    private final TagWorkflow tagging;
    private final WorkflowDocuments documents;

    EditorHistoryController(WorkflowQueries queries, TagWorkflow tagging, WorkflowDocuments documents) {
        this.queries = queries;
        this.tagging = tagging;
        this.documents = documents;
    }

    @GetMapping("/workflows/{workflow}/editor/history")
    String history(@PathVariable String workflow, Model model) {
        return historyPanel(model, workflow, TagForm.empty());
    }

    @PostMapping("/workflows/{workflow}/editor/tags")
    String tag(@PathVariable String workflow, @RequestParam(defaultValue = "") String tag,
               @RequestParam(required = false) Integer version, Principal principal, Model model,
               HttpServletResponse response) {
        try {
            tagging.tag(workflow, tag.trim(), version, Authors.of(principal));
            return historyPanel(model, workflow, TagForm.empty());
        } catch (BadRequestException e) {
            response.setStatus(e.status());
            return historyPanel(model, workflow, new TagForm(tag, version, e.getMessage()));
        }
    }

    @GetMapping("/workflows/{workflow}/editor/diff")
    String diff(@PathVariable String workflow, @RequestParam int from, @RequestParam int to, Model model) {
        Workflow found = queries.workflow(workflow);
        var before = documents.read(queries.version(found, from).dsl());
        var after = documents.read(queries.version(found, to).dsl());
        model.addAttribute("diff", VersionDiff.of(from, to, before, after, JsonPatch.diff(before, after)));
        return EDITOR + " :: diff-panel";
    }

    @GetMapping("/workflows/{workflow}/editor/run-form")
    String runForm(@PathVariable String workflow, Model model) {
        WorkflowSnapshot latest = queries.latest(workflow);
        model.addAttribute("runForm", RunForm.of(latest.version(), latest.dsl()));
        return EDITOR + " :: run-form";
    }

    private String historyPanel(Model model, String workflow, TagForm tagForm) {
        WorkflowSnapshot latest = queries.latest(workflow);
        model.addAttribute("history", WorkflowPage.of(latest, queries.versions(workflow)));
        model.addAttribute("tagForm", tagForm);
        return EDITOR + " :: history-panel";
    }
}
