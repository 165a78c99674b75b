package io.tokenflow.runs;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

import io.tokenflow.tracing.TraceIds;
import io.tokenflow.tracing.TracingSettings;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.PageLinks;
import tools.jackson.databind.json.JsonMapper;

/**
 * The runs pages: the list (filtered, kept live over {@code /live}), one run's live page, its state at any earlier
 * event (the time-travel slider) and one node's executions.
 */
@Controller
class RunsController {

    private final LiveRunRows rows;
    private final RunPages pages;
    private final RunFragments fragments;
    private final RunQueries queries;
    private final JsonMapper json;
    private final TracingSettings tracing;

    RunsController(LiveRunRows rows, RunPages pages, RunFragments fragments, RunQueries queries, JsonMapper json,
                   TracingSettings tracing) {
        this.tracing = tracing;
        this.queries = queries;
        this.rows = rows;
        this.pages = pages;
        this.fragments = fragments;
        this.json = json;
    }

    @GetMapping("/runs")
    String list(@RequestParam(required = false) String status, @RequestParam(required = false) String workflow,
                @RequestParam(required = false) String since, @RequestParam(required = false) String page,
                Model model) {
        RunFilter filter = new RunFilter(status, workflow, since);
        int number = PageLinks.number(page);
        String problem = filter.problem();
        LiveRunRows.Table table = problem == null ? rows.page(filter, number, Set.of())
                : new LiveRunRows.Table(List.of(), 0);
        Map<String, String> live = new LinkedHashMap<>(problem == null ? filter.params() : Map.of());
        if (number > 1) {
            live.put("page", String.valueOf(number));
        }
        model.addAttribute("runs", table.rows());
        model.addAttribute("pager", pager(filter, number, table));
        model.addAttribute("filter", filter);
        model.addAttribute("filterProblem", problem);
        model.addAttribute("statuses", RunFilter.STATUSES);
        model.addAttribute("now", Instant.now());
        model.addAttribute("liveParams", json.writeValueAsString(live));
        return "runs/runs";
    }

    static PageLinks pager(RunFilter filter, int number, LiveRunRows.Table table) {
        return PageLinks.of(number, RunListQueries.PAGE_SIZE, table.total(), table.rows().size(), "/runs",
                filter.params());
    }

    @GetMapping("/runs/{id}")
    String run(@PathVariable UUID id, Model model) {
        RunPages.Page page = pages.page(id, null, Long.MAX_VALUE);
        model.addAttribute("run", page.picture());
        model.addAttribute("compensable", page.compensable());
        model.addAttribute("calls", queries.calls(id));
        model.addAttribute("traceId", TraceIds.traceId(id));
        model.addAttribute("traceLink", tracing.linkTo(TraceIds.traceId(id)));
        return "runs/run";
    }

    /** The run at event {@code seq}, as out-of-band fragments; hops after {@code from} are drawn moving. */
    @GetMapping(path = "/runs/{id}/at", produces = MediaType.TEXT_HTML_VALUE)
    @ResponseBody
    String at(@PathVariable UUID id, @RequestParam long seq, @RequestParam(defaultValue = "-1") long from) {
        if (seq < 0) {
            throw new BadRequestException("Expected seq >= 0, but found " + seq, "query:seq");
        }
        return fragments.state(pages.picture(id, seq, from < 0 ? seq : from));
    }

    @GetMapping("/runs/{id}/nodes/{node}")
    String node(@PathVariable UUID id, @PathVariable String node, @RequestParam(required = false) Long seq,
                Model model) {
        model.addAttribute("detail", pages.node(id, node, seq));
        model.addAttribute("runId", id);
        return "runs/run :: node-detail";
    }
}
