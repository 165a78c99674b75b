package io.tokenflow.e2e;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.microsoft.playwright.Page;

/** What a page's scripts complain about: console errors and warnings, and uncaught errors, from now on. */
final class ConsoleProblems {

    private ConsoleProblems() {
    }

    /** A live list that fills as the page logs problems; a test asserts it stays empty. */
    static List<String> of(Page page) {
        List<String> problems = new CopyOnWriteArrayList<>();
        page.onConsoleMessage(message -> {
            if (message.type().equals("error") || message.type().equals("warning")) {
                problems.add(message.type() + ": " + message.text() + " at " + message.location());
            }
        });
        page.onPageError(error -> problems.add("page error: " + error));
        return problems;
    }
}
