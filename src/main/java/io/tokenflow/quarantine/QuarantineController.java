package io.tokenflow.quarantine;

import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.tokenflow.web.PageLinks;

/** The quarantine page ({@code /quarantine}): the entries set aside, newest first and paged, with run, reason, text. */
@Controller
class QuarantineController {

    static final int PAGE_SIZE = 25;

    private final Quarantine quarantine;

    QuarantineController(Quarantine quarantine) {
        this.quarantine = quarantine;
    }

    @GetMapping("/quarantine")
    String page(@RequestParam(required = false) String page, Model model) {
        int number = PageLinks.number(page);
        List<QuarantinedEntry> shown = quarantine.page((long) (number - 1) * PAGE_SIZE, PAGE_SIZE);
        model.addAttribute("entries", shown);
        model.addAttribute("pager", PageLinks.of(number, PAGE_SIZE, quarantine.count(), shown.size(), "/quarantine",
                Map.of()));
        return "quarantine/quarantine";
    }
}
