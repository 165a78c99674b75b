package io.tokenflow.web;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** The start page is the workflows list; the icon browsers ask for at {@code /favicon.ico} is the SVG one. */
@Controller
class HomeController {

    @GetMapping("/")
    String home() {
        return "redirect:/workflows";
    }

    /** Browsers ask for it whatever the page links: they follow the redirect to the icon the layout names. */
    @GetMapping("/favicon.ico")
    String favicon() {
        return "redirect:/favicon.svg";
    }
}
