package io.tokenflow.web;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** The start page is the workflows list. */
@Controller
class HomeController {

    @GetMapping("/")
    String home() {
        return "redirect:/workflows";
    }
}
