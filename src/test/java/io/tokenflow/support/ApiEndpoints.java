package io.tokenflow.support;

import java.util.Set;
import java.util.TreeSet;

import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** The {@code /api} endpoints the application maps, as {@code "METHOD pattern"}: what the matrices go through. */
public final class ApiEndpoints {

    private ApiEndpoints() {
    }

    public static Set<String> mapped(RequestMappingHandlerMapping mappings) {
        Set<String> mapped = new TreeSet<>();
        for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
            for (String pattern : info.getPatternValues()) {
                if (pattern.startsWith("/api/")) {
                    Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
                    (methods.isEmpty() ? Set.of(RequestMethod.GET) : methods)
                            .forEach(method -> mapped.add(method + " " + pattern));
                }
            }
        }
        return mapped;
    }
}
