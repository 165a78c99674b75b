package io.tokenflow.live;

import org.springframework.web.util.HtmlUtils;

/** The hub's own fragments: the connection status line every live page has ({@code #live-status}). */
final class LiveMessages {

    private LiveMessages() {
    }

    static String problem(String message) {
        return "<p id=\"live-status\" hx-swap-oob=\"true\" class=\"live-status live-problem\" role=\"alert\">"
                + HtmlUtils.htmlEscape(message) + "</p>";
    }
}
