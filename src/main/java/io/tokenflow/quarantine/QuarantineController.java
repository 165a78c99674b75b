package io.tokenflow.quarantine;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The quarantine page ({@code /quarantine}): the entries set aside, newest first, with run, reason and raw text. */
@Controller
class QuarantineController {

    private final Quarantine quarantine;

    QuarantineController(Quarantine quarantine) {
        this.quarantine = quarantine;
    }

    @GetMapping("/quarantine")
    String page(Model model) {
        model.addAttribute("entries", quarantine.newest());
        model.addAttribute("limit", Quarantine.LIMIT);
        return "quarantine/quarantine";
    }
}
