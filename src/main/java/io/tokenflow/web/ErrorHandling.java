package io.tokenflow.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.tokenflow.engine.patch.InvalidPatchException;
import io.tokenflow.engine.patch.PatchApplicationException;
import io.tokenflow.engine.patch.PatchException;
import io.tokenflow.engine.patch.PatchTestFailedException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * The one place errors become responses: for {@code /api/**} and {@code /hooks/**} an RFC 7807 problem naming the field, operation or
 * node at fault; for pages the same problem rendered by the error template (a fragment for htmx requests).
 */
@ControllerAdvice
class ErrorHandling extends ResponseEntityExceptionHandler {

    private static final Log log = LogFactory.getLog(ErrorHandling.class);

    @ExceptionHandler(NotFoundException.class)
    Object notFound(NotFoundException e, HttpServletRequest request) {
        return respond(request, Problems.of(404, "not-found", "Not found", e.getMessage()));
    }

    @ExceptionHandler(ForbiddenException.class)
    Object forbidden(ForbiddenException e, HttpServletRequest request) {
        return respond(request, Problems.of(403, "forbidden", "Forbidden", e.getMessage()));
    }

    @ExceptionHandler(ConflictException.class)
    Object conflict(ConflictException e, HttpServletRequest request) {
        return respond(request, Problems.of(409, "conflict", "Conflict", e.getMessage(), e.properties()));
    }

    @ExceptionHandler(TooManyRequestsException.class)
    Object tooMany(TooManyRequestsException e, HttpServletRequest request, HttpServletResponse response) {
        response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(Math.max(1, e.retryAfter().toSeconds())));
        return respond(request, Problems.of(429, "quota-exceeded", "Quota exceeded", e.getMessage(), e.properties()));
    }

    @ExceptionHandler(InvalidWorkflowException.class)
    Object invalidWorkflow(InvalidWorkflowException e, HttpServletRequest request) {
        return respond(request, Problems.of(422, "invalid-workflow", "Workflow does not compile", e.getMessage(),
                Map.of("diagnostics", e.diagnostics())));
    }

    @ExceptionHandler(BadRequestException.class)
    Object badRequest(BadRequestException e, HttpServletRequest request) {
        Map<String, Object> properties = e.pointer() == null ? Map.of() : Map.of("pointer", e.pointer());
        return respond(request, Problems.of(e.status(), "bad-request", "Bad request", e.getMessage(), properties));
    }

    /**
     * Spring Security's firewall checks header values when they are read (here, by a handler): one with a control
     * character (a NUL in {@code If-Match}) is the caller's fault, not ours.
     */
    @ExceptionHandler(RequestRejectedException.class)
    Object rejected(RequestRejectedException e, HttpServletRequest request) {
        return respond(request, Problems.of(400, "bad-request", "Bad request", "Expected header values of printable "
                + "characters, but the request has one with a control character"));
    }

    @ExceptionHandler(PatchException.class)
    Object patchFailed(PatchException e, HttpServletRequest request) {
        Map<String, Object> where = new LinkedHashMap<>();
        where.put("operation", e.operationIndex());
        where.put("pointer", e.pointer());
        if (e instanceof InvalidPatchException) {
            return respond(request, Problems.of(400, "invalid-patch", "Malformed JSON Patch", e.getMessage(), where));
        }
        if (e instanceof PatchTestFailedException) {
            return respond(request, Problems.of(409, "patch-test-failed", "JSON Patch test failed", e.getMessage(), where));
        }
        String slug = e instanceof PatchApplicationException ? "patch-not-applicable" : "patch-failed";
        return respond(request, Problems.of(409, slug, "JSON Patch cannot be applied", e.getMessage(), where));
    }

    @ExceptionHandler(DataIntegrityViolationException.class)
    Object integrity(DataIntegrityViolationException e, HttpServletRequest request) {
        log.info("Refused a write that violates a constraint: " + e.getMostSpecificCause().getMessage());
        return respond(request, Problems.of(409, "conflict", "Conflict", "Expected the change to keep the data consistent, but it "
                + "conflicts with existing data (e.g. a name already taken or a concurrent change); reload and retry"));
    }

    /** PostgreSQL or Redis unreachable answers 503 with Retry-After (one line in the log, no stack trace). */
    @ExceptionHandler(Exception.class)
    Object unexpected(Exception e, HttpServletRequest request, HttpServletResponse response) {
        Optional<Outages.Outage> outage = Outages.of(e);
        if (outage.isPresent()) {
            log.warn(request.getMethod() + " " + request.getRequestURI() + " answered 503: " + outage.get().detail());
            response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(Outages.RETRY_AFTER.toSeconds()));
            return respond(request, Problems.unavailable(outage.get()));
        }
        log.error("Unexpected error in the API", e);
        return respond(request, Problems.of(500, "internal", "Internal error", "The server failed unexpectedly; the error is logged"));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        Map<String, Object> where = new LinkedHashMap<>();
        String detail = "Expected a well-formed JSON request body, but it could not be read";
        if (e.getMostSpecificCause() instanceof JacksonException jackson) {
            TokenStreamLocation location = jackson.getLocation();
            if (location != null && location.getLineNr() > 0) {
                where.put("line", location.getLineNr());
                where.put("column", location.getColumnNr());
            }
            where.put("pointer", jackson.getPathReference() == null ? "" : RequestJson.pointerOf(jackson));
            detail += ": " + JsonWording.withoutJavaNames(jackson.getOriginalMessage());
        }
        return ResponseEntity.badRequest().body(Problems.of(400, "malformed-json", "Malformed request body", detail, where));
    }

    /**
     * Pages answer Spring MVC's own errors (no such page, a wrong method...) with the error page rather than JSON:
     * the status goes to the servlet container, whose error dispatch renders {@code templates/error.html}; the
     * problem travels as the request attribute {@code problem} (Boot's error attributes leave messages out).
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
                                                             HttpStatusCode status, WebRequest request) {
        if (!(request instanceof ServletWebRequest page) || isApi(page.getRequest()) || page.getResponse() == null) {
            return super.handleExceptionInternal(e, body, headers, status, request);
        }
        if (!page.getResponse().isCommitted()) {
            String detail = status.value() == 404
                    ? "Expected a page at " + page.getRequest().getRequestURI() + ", but there is none"
                    : body instanceof ProblemDetail problem ? problem.getDetail() : e.getMessage();
            HttpStatus known = HttpStatus.resolve(status.value());
            page.getRequest().setAttribute("problem", Problems.of(status.value(), "http-" + status.value(),
                    known == null ? "Error" : known.getReasonPhrase(), detail));
            try {
                page.getResponse().sendError(status.value(), detail);
            } catch (IOException failed) {
                throw new UncheckedIOException(failed);
            }
        }
        return null;
    }

    /** JSON callers: the API and webhooks ({@code /hooks/**}), answered with problem+json. */
    static boolean isApi(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.startsWith("/api/") || path.startsWith("/hooks/");
    }

    private static Object respond(HttpServletRequest request, ProblemDetail problem) {
        if (isApi(request)) {
            return ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
        }
        String view = request.getHeader("HX-Request") != null ? "error/problem :: problem" : "error/problem";
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("problem", problem);
        model.put(LayoutAdvice.CURRENT_USER, LayoutAdvice.nameOf(request.getUserPrincipal()));
        ModelAndView page = new ModelAndView(view, model);
        page.setStatus(HttpStatusCode.valueOf(problem.getStatus()));
        return page;
    }

}
