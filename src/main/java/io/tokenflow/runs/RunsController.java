package io.tokenflow.runs;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The runs page: the newest runs, read-only. */
@Controller
class RunsController {

    private final RunListQueries runs;

    RunsController(RunListQueries runs) {
        this.runs = runs;
    }

    @GetMapping("/runs")
    String list(Model model) {
        model.addAttribute("runs", runs.newest());
        model.addAttribute("limit", RunListQueries.LIMIT);
        return "runs/runs";
    }
}
