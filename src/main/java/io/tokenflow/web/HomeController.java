package io.tokenflow.web;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/** The start page is the workflows list; the icon browsers ask for at {@code /favicon.ico} is the SVG one. */
@Controller
class HomeController {

    private static final String ICON = "/assets/favicon.svg";

    private final ResourceUrlProvider resources;

    HomeController(ResourceUrlProvider resources) {
        this.resources = resources;
    }

    @GetMapping("/")
    String home() {
        return "redirect:/workflows";
    }

    /**
     * Browsers ask for it whatever the page links: they follow the redirect to the icon the layout names, under its
     * content hash (the unhashed URL would be cached for a year too, and keep an old icon).
     */
    @GetMapping("/favicon.ico")
    String favicon() {
        String hashed = resources.getForLookupPath(ICON);
        return "redirect:" + (hashed == null ? ICON : hashed);
    }
}
