package io.tokenflow.dlq;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.PageLinks;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;

/**
 * The dead-letter page ({@code /dlq}): open (or resolved) entries with filters; reprocess one, with its input as it was
 * or edited, or several at once; discard. Operators only (the security configuration says who may post here).
 */
@Controller
class DlqController {

    private final DlqQueries entries;
    private final DlqActions actions;

    DlqController(DlqQueries entries, DlqActions actions) {
        this.entries = entries;
        this.actions = actions;
    }

    @GetMapping("/dlq")
    String page(@RequestParam(required = false) String status, @RequestParam(required = false) String workflow,
                @RequestParam(required = false) String node, @RequestParam(required = false) String error,
                @RequestParam(required = false) String page, HttpServletRequest request, Model model) {
        DlqFilter filter = DlqFilter.of(status, workflow, node, error);
        int number = PageLinks.number(page);
        List<DlqEntry> shown = entries.page(filter, (long) (number - 1) * DlqQueries.PAGE_SIZE);
        String shownStatus = filter.open() == null ? "all" : filter.open() ? "open" : "resolved";
        model.addAttribute("entries", shown);
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("status", shownStatus);
        filters.put("workflow", filter.workflow());
        filters.put("node", filter.node());
        filters.put("error", filter.error());
        model.addAttribute("pager", PageLinks.of(number, DlqQueries.PAGE_SIZE, entries.count(filter), shown.size(),
                "/dlq", filters));
        model.addAttribute("back", request.getQueryString() == null ? "/dlq" : "/dlq?" + request.getQueryString());
        model.addAttribute("status", shownStatus);
        model.addAttribute("workflow", filter.workflow());
        model.addAttribute("node", filter.node());
        model.addAttribute("error", filter.error());
        return "dlq/dlq";
    }

    @PostMapping("/dlq/{id}/reprocess")
    String reprocess(@PathVariable UUID id, @RequestParam(required = false) String input,
                     @RequestParam(required = false) String back, Principal principal, RedirectAttributes redirect) {
        return act(redirect, id, () -> actions.reprocess(id, edited(input), principal.getName()), "Reprocessed ")
                + listAt(back);
    }

    @PostMapping("/dlq/reprocess")
    String reprocessSelected(@RequestParam(name = "ids", required = false) List<UUID> ids,
                             @RequestParam(required = false) String back, Principal principal,
                             RedirectAttributes redirect) {
        int done = 0;
        for (UUID id : ids == null ? List.<UUID>of() : ids) {
            try {
                actions.reprocess(id, null, principal.getName());
                done++;
            } catch (ConflictException | NotFoundException e) {
                redirect.addFlashAttribute("failure", e.getMessage());
            }
        }
        redirect.addFlashAttribute("notice", "Reprocessed " + done + (done == 1 ? " entry" : " entries"));
        return "redirect:" + listAt(back);
    }

    @PostMapping("/dlq/{id}/discard")
    String discard(@PathVariable UUID id, @RequestParam(required = false) String back, Principal principal,
                   RedirectAttributes redirect) {
        return act(redirect, id, () -> actions.discard(id, principal.getName()), "Discarded ") + listAt(back);
    }

    private static String act(RedirectAttributes redirect, UUID id, Supplier<DlqEntry> action,
                              String done) {
        try {
            DlqEntry entry = action.get();
            redirect.addFlashAttribute("notice", done + "node " + entry.node() + " of run " + entry.runId());
        } catch (BadRequestException | ConflictException | NotFoundException e) {
            redirect.addFlashAttribute("failedId", id);
            redirect.addFlashAttribute("failure", e.getMessage());
        }
        return "redirect:";
    }

    /** The list the action was taken on (its filters and page), or the plain list for anything but a list URL. */
    private static String listAt(String back) {
        boolean list = back != null && (back.equals("/dlq") || back.startsWith("/dlq?")) && !back.contains("{");
        return list ? back : "/dlq";
    }

    /** The edited input from the form, or {@code null} to keep the task's own (an empty field). */
    private static JsonNode edited(String input) {
        if (input == null || input.isBlank()) {
            return null;
        }
        return RequestJson.parse(input);
    }
}
