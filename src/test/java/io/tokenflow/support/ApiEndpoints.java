package io.tokenflow.support;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** The {@code /api} (or other) endpoints the application maps, as {@code "METHOD pattern"}: what matrices go through. */
public final class ApiEndpoints {

    private ApiEndpoints() {
    }

    public static Set<String> mapped(RequestMappingHandlerMapping mappings) {
        return mapped(mappings, "/api/");
    }

    /** The endpoints whose pattern starts with one of {@code prefixes}, as {@code "METHOD pattern"}. */
    public static Set<String> mapped(RequestMappingHandlerMapping mappings, String... prefixes) {
        Set<String> mapped = new TreeSet<>();
        for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
            for (String pattern : info.getPatternValues()) {
                if (Arrays.stream(prefixes).anyMatch(pattern::startsWith)) {
                    Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
                    (methods.isEmpty() ? Set.of(RequestMethod.GET) : methods)
                            .forEach(method -> mapped.add(method + " " + pattern));
                }
            }
        }
        return mapped;
    }
}
