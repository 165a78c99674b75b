package io.tokenflow.web;

import java.net.URI;
import java.util.Map;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/** Builds RFC 7807 problem details with Tokenflow's problem type URIs. */
public final class Problems {

    public static final String TYPE_BASE = "https://tokenflow.io/problems/";

    private Problems() {
    }

    public static ProblemDetail of(int status, String slug, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(status), detail);
        problem.setType(URI.create(TYPE_BASE + slug));
        problem.setTitle(title);
        return problem;
    }

    /** 503: the store named by {@code outage} is unreachable (send {@link Outages#RETRY_AFTER} with it). */
    public static ProblemDetail unavailable(Outages.Outage outage) {
        return of(503, "unavailable", "Service unavailable", outage.detail(), Map.of("store", outage.store()));
    }

    public static ProblemDetail of(int status, String slug, String title, String detail, Map<String, Object> properties) {
        ProblemDetail problem = of(status, slug, title, detail);
        properties.forEach(problem::setProperty);
        return problem;
    }
}
