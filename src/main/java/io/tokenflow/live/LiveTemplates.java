package io.tokenflow.live;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;

import org.springframework.stereotype.Component;
import org.thymeleaf.ITemplateEngine;
import org.thymeleaf.context.Context;

/**
 * Renders fragments of a page's own template for a push, outside any HTTP request. Fragments mark themselves for
 * out-of-band swapping with {@code th:hx-swap-oob="${live}"}, which is set only here. Links ({@code @{/…}}) resolve
 * against the root context path ({@link LiveLinkBuilder}); forms in pushed fragments post through htmx (which sends
 * the CSRF header), as no request is there to add the hidden CSRF field.
 */
@Component
public class LiveTemplates {

    private final ITemplateEngine templates;

    public LiveTemplates(ITemplateEngine templates) {
        this.templates = templates;
    }

    /** The named fragments ({@code th:fragment}) of {@code template}, in document order. */
    public String render(String template, Collection<String> fragments, Map<String, Object> model) {
        Context context = new Context(Locale.ENGLISH, model);
        context.setVariable("live", "true");
        return templates.process(template, new LinkedHashSet<>(fragments), context);
    }
}
