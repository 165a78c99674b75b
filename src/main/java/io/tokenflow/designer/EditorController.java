package io.tokenflow.designer;

import java.security.Principal;
import java.util.List;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.types.NodeTypeCatalog;
import io.tokenflow.nodetypes.NodeTypeRegistry;
import io.tokenflow.web.NotFoundException;
import tools.jackson.databind.JsonNode;

/**
 * The visual editor: the page, and the server-rendered regions the canvas asks for as the draft changes: the
 * inspector of what is selected, the problems of the draft (a dry-run compile) and its compiled IR. The draft lives in
 * the browser until saved; it is sent with each request, and saved as an RFC 6902 patch through the workflows API.
 */
@Controller
class EditorController {

    private static final String EDITOR = "designer/editor";
    private static final int CALLABLE_NAMES = 500;

    private final WorkflowQueries queries;
    private final WorkflowCompilation compilation;
    private final WorkflowDocuments documents;
    private final NodeTypeRegistry nodeTypes;

    EditorController(WorkflowQueries queries, WorkflowCompilation compilation, WorkflowDocuments documents,
                     NodeTypeRegistry nodeTypes) {
        this.queries = queries;
        this.compilation = compilation;
        this.documents = documents;
        this.nodeTypes = nodeTypes;
    }

    @GetMapping("/workflows/{workflow}/editor")
    String editor(@PathVariable String workflow, Principal principal, Model model) {
        WorkflowDraft latest = queries.latestDraft(workflow);
        String user = principal == null ? null : principal.getName();
        Workflow callable = queries.lastChangedOtherThan(latest.id()).orElse(null);
        model.addAttribute("editor", EditorPage.of(latest, PaletteEntry.of(nodeTypes.snapshot().all(), user,
                callable)));
        return EDITOR;
    }

    /** The inspector of a node (by id), an edge (by index) or, with neither, of the workflow itself. */
    @PostMapping("/workflows/{workflow}/editor/inspector")
    String inspector(@PathVariable String workflow, @RequestParam String document,
                     @RequestParam(required = false) String node, @RequestParam(required = false) Integer edge,
                     Model model) {
        JsonNode draft = documents.parse(document);
        if (node != null) {
            NodeTypeCatalog types = nodeTypes.snapshot();
            int index = indexOfNode(draft, node);
            String type = draft.path("nodes").get(index).path("type").asString("");
            List<String> callable = IrCall.NODE_TYPE.equals(type)
                    ? queries.namesOtherThan(queries.workflow(workflow).id(), CALLABLE_NAMES) : List.of();
            model.addAttribute("inspectedNode", NodeInspector.of(draft, index, types.find(type).orElse(null),
                    callable));
        } else if (edge != null) {
            if (edge < 0 || edge >= draft.path("edges").size()) {
                throw new NotFoundException("Expected an edge at /edges/" + edge + " of the draft, but it has "
                        + draft.path("edges").size() + " edges");
            }
            model.addAttribute("inspectedEdge", EdgeInspector.of(draft, edge));
        } else {
            model.addAttribute("inspectedWorkflow", WorkflowInspector.of(draft));
        }
        model.addAttribute("conditionTypes", ConditionView.TYPES);
        return EDITOR + " :: inspector";
    }

    /** Compiles the draft without storing it: every diagnostic, grouped by node. */
    @PostMapping("/workflows/{workflow}/editor/check")
    String check(@PathVariable String workflow, @RequestParam String document,
                 @RequestParam(defaultValue = "0") long revision, Model model) {
        CompilationResult result = compilation.compile(documents.parse(document), queries.workflow(workflow).id());
        model.addAttribute("problems", FormProblems.of(result.diagnostics(), List.of()));
        model.addAttribute("errors", result.diagnostics().stream().filter(d -> d.isError()).count());
        model.addAttribute("warnings", result.warnings().size());
        model.addAttribute("revision", revision);
        return EDITOR + " :: problems-panel";
    }

    /** The draft's compiled IR, or why there is none. */
    @PostMapping("/workflows/{workflow}/editor/ir")
    String ir(@PathVariable String workflow, @RequestParam String document, Model model) {
        CompilationResult result = compilation.compile(documents.parse(document), queries.workflow(workflow).id());
        model.addAttribute("ir", result.succeeded() ? documents.toTree(result.ir()).toPrettyString() : null);
        return EDITOR + " :: ir-panel";
    }

    private static int indexOfNode(JsonNode draft, String id) {
        JsonNode nodes = draft.path("nodes");
        for (int i = 0; i < nodes.size(); i++) {
            if (id.equals(nodes.get(i).path("id").asString(null))) {
                return i;
            }
        }
        throw new NotFoundException("Expected a node '" + id + "' in the draft, but there is none");
    }
}
