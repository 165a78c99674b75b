package io.tokenflow.designer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.PageLinks;
import tools.jackson.databind.JsonNode;

/** The workflows pages: list and search, create, import (upload or paste), a workflow's detail page and its tags. */
@Controller
class WorkflowsController {

    static final int PAGE_SIZE = 25;
    /** Newest change first: a workflow's newest version moves it to the top. */
    private static final Sort NEWEST_CHANGE_FIRST = Sort.by(Sort.Order.desc("updatedAt"), Sort.Order.asc("name"));
    private static final String LIST = "designer/workflows";
    private static final String DETAIL = "designer/workflow";

    private final WorkflowQueries queries;
    private final CreateWorkflow creating;
    private final WorkflowCompilation compilation;
    private final TagWorkflow tagging;
    private final WorkflowDocuments documents;

    WorkflowsController(WorkflowQueries queries, CreateWorkflow creating, WorkflowCompilation compilation,
                        TagWorkflow tagging, WorkflowDocuments documents) {
        this.queries = queries;
        this.creating = creating;
        this.compilation = compilation;
        this.tagging = tagging;
        this.documents = documents;
    }

    @GetMapping("/workflows")
    String list(@RequestParam(defaultValue = "") String q, @RequestParam(required = false) String page,
                Model model) {
        addTable(model, q, PageLinks.number(page));
        return listPage(model, CreateForm.empty(), ImportForm.empty());
    }

    @GetMapping(path = "/workflows", headers = "HX-Request")
    String table(@RequestParam(defaultValue = "") String q, @RequestParam(required = false) String page,
                 Model model) {
        addTable(model, q, PageLinks.number(page));
        return LIST + " :: workflow-table";
    }

    @PostMapping("/workflows")
    String create(@RequestParam(defaultValue = "") String name, @RequestParam(defaultValue = "") String description,
                  Principal principal, Model model, HttpServletResponse response) {
        CreateForm form = new CreateForm(name, description, null);
        Submitted submitted = submit(form::document, CreateForm.FIELDS, principal);
        if (submitted.created() != null) {
            return redirectTo(submitted.created());
        }
        response.setStatus(submitted.problems().status());
        addTable(model, "", 1);
        return listPage(model, form.withProblems(submitted.problems()), ImportForm.empty());
    }

    @PostMapping(path = "/workflows/import", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    String importFile(@RequestParam("file") MultipartFile file, @RequestParam(defaultValue = "") String saveAs,
                      Principal principal, Model model, HttpServletResponse response) throws IOException {
        String text = new String(file.getBytes(), StandardCharsets.UTF_8);
        return importDocument(ImportForm.uploaded(file.getOriginalFilename(), text, saveAs), principal, model, response);
    }

    @PostMapping("/workflows/paste")
    String paste(@RequestParam(defaultValue = "") String json, @RequestParam(defaultValue = "") String saveAs,
                 Principal principal, Model model, HttpServletResponse response) {
        return importDocument(ImportForm.pasted(json, saveAs), principal, model, response);
    }

    @GetMapping("/workflows/{workflow}")
    String detail(@PathVariable String workflow, Model model) {
        return detailPage(model, workflow, TagForm.empty());
    }

    @PostMapping("/workflows/{workflow}/tags")
    String tag(@PathVariable String workflow, @RequestParam(defaultValue = "") String tag,
               @RequestParam(required = false) Integer version, Principal principal, Model model,
               HttpServletResponse response) {
        try {
            TagWorkflow.TagView tagged = tagging.tag(workflow, tag.trim(), version, Authors.of(principal));
            return redirectTo(tagged.workflowId()) + "#tags";
        } catch (BadRequestException e) {
            response.setStatus(e.status());
            return detailPage(model, workflow, new TagForm(tag, version, e.getMessage()));
        }
    }

    private String importDocument(ImportForm form, Principal principal, Model model, HttpServletResponse response) {
        Submitted submitted = submit(() -> form.document(documents), ImportForm.FIELDS, principal);
        if (submitted.created() != null) {
            return redirectTo(submitted.created());
        }
        response.setStatus(submitted.problems().status());
        addTable(model, "", 1);
        return listPage(model, CreateForm.empty(), form.withProblems(submitted.problems()));
    }

    /**
     * Compiles the document and creates the workflow when it compiles; else says what is wrong, and where. Reading
     * the document may fail with {@link BadRequestException}.
     */
    private Submitted submit(Supplier<JsonNode> source, List<String> fields, Principal principal) {
        try {
            JsonNode document = source.get();
            CompilationResult result = compilation.compile(document);
            if (!result.succeeded()) {
                return new Submitted(null, FormProblems.of(result.diagnostics(), fields));
            }
            return new Submitted(creating.create(document, Authors.of(principal)).id(), FormProblems.none());
        } catch (BadRequestException e) {
            return new Submitted(null, FormProblems.unreadable(e.getMessage()));
        } catch (ConflictException e) {
            return new Submitted(null, FormProblems.nameTaken(e.getMessage()));
        }
    }

    private String listPage(Model model, CreateForm createForm, ImportForm importForm) {
        model.addAttribute("createForm", createForm);
        model.addAttribute("importForm", importForm);
        return LIST;
    }

    /** One page of the list, newest change first; a page beyond the last shows the last. */
    private void addTable(Model model, String q, int number) {
        Page<WorkflowSummary> found = queries.list(q, PageRequest.of(number - 1, PAGE_SIZE, NEWEST_CHANGE_FIRST));
        if (found.isEmpty() && number > 1 && found.getTotalElements() > 0) {
            number = found.getTotalPages();
            found = queries.list(q, PageRequest.of(number - 1, PAGE_SIZE, NEWEST_CHANGE_FIRST));
        }
        model.addAttribute("q", q);
        model.addAttribute("workflows", found.getContent());
        model.addAttribute("pager", PageLinks.of(number, PAGE_SIZE, found.getTotalElements(),
                found.getNumberOfElements(), "/workflows", Map.of("q", q)));
    }

    private String detailPage(Model model, String workflow, TagForm tagForm) {
        model.addAttribute("workflow", WorkflowPage.of(queries.latest(workflow), queries.versions(workflow)));
        model.addAttribute("tagForm", tagForm);
        return DETAIL;
    }

    private static String redirectTo(UUID workflow) {
        return "redirect:/workflows/" + workflow;
    }

    /** The id of the workflow created, or the problems that prevented it. */
    private record Submitted(UUID created, FormProblems problems) {
    }
}
