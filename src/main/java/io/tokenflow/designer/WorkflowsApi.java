package io.tokenflow.designer;

import java.net.URI;
import java.security.Principal;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.BadRequestException;
import tools.jackson.databind.JsonNode;

/** Workflow definitions: create, list, read, patch (RFC 6902 with If-Match), versions, diff, restore, tags. */
@RestController
@RequestMapping("/api/v1/workflows")
class WorkflowsApi {

    static final String JSON_PATCH = "application/json-patch+json";
    private static final String PATCH_EXAMPLE = """
            [{"op": "test", "path": "/description", "value": "Seed 003 example 1: A → B → C"},
             {"op": "replace", "path": "/description", "value": "A → B → C, then notify"},
             {"op": "add", "path": "/nodes/-", "value": {"id": "notify", "type": "function",
                                                        "config": {"function": "noop"}}},
             {"op": "add", "path": "/edges/-", "value": {"from": "C", "to": "notify"}}]
            """;

    private final CreateWorkflow creating;
    private final PatchWorkflow patching;
    private final RestoreVersion restoring;
    private final TagWorkflow tagging;
    private final WorkflowQueries queries;
    private final WorkflowDocuments documents;

    WorkflowsApi(CreateWorkflow creating, PatchWorkflow patching, RestoreVersion restoring, TagWorkflow tagging,
                 WorkflowQueries queries, WorkflowDocuments documents) {
        this.creating = creating;
        this.patching = patching;
        this.restoring = restoring;
        this.tagging = tagging;
        this.queries = queries;
        this.documents = documents;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<WorkflowSnapshot> create(@RequestBody String body, Principal principal) {
        WorkflowSnapshot created = creating.create(documents.parse(body), Authors.of(principal));
        return ResponseEntity.created(URI.create("/api/v1/workflows/" + created.id()))
                .eTag(IfMatch.etag(created.version())).body(created);
    }

    @GetMapping
    Page<WorkflowSummary> list(@RequestParam(required = false) String q, @RequestParam(defaultValue = "0") int page,
                               @RequestParam(defaultValue = "50") int size) {
        if (page < 0 || size < 1 || size > 500) {
            throw new BadRequestException("Expected page >= 0 and size between 1 and 500, but found page " + page
                    + " and size " + size, "query:size");
        }
        return queries.list(q, PageRequest.of(page, size, Sort.by("name")));
    }

    @GetMapping("/{workflow}")
    ResponseEntity<WorkflowSnapshot> get(@PathVariable String workflow) {
        WorkflowSnapshot latest = queries.latest(workflow);
        return ResponseEntity.ok().eTag(IfMatch.etag(latest.version())).body(latest);
    }

    @PatchMapping(path = "/{workflow}", consumes = JSON_PATCH)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(description = "RFC 6902 operations on the newest version's "
            + "document; If-Match names the version they were written against (409 if another came since)",
            content = @Content(schema = @Schema(type = "array"), examples = @ExampleObject(name = "add a node",
                    value = PATCH_EXAMPLE)))
    ResponseEntity<WorkflowSnapshot> patch(@PathVariable String workflow, @RequestBody String patch,
                                           @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
                                           @RequestHeader(name = "X-Change-Message", required = false) String message,
                                           Principal principal) {
        int expected = IfMatch.parse(ifMatch).version();
        WorkflowSnapshot result = patching.patch(queries.workflow(workflow).id(), expected, patch,
                Authors.of(principal), message);
        return ResponseEntity.ok().eTag(IfMatch.etag(result.version())).body(result);
    }

    @GetMapping("/{workflow}/versions")
    List<VersionSummary> versions(@PathVariable String workflow) {
        return queries.versions(workflow);
    }

    @GetMapping("/{workflow}/versions/{version}")
    ResponseEntity<WorkflowSnapshot> version(@PathVariable String workflow, @PathVariable int version) {
        return ResponseEntity.ok().eTag(IfMatch.etag(version)).body(queries.atVersion(workflow, version));
    }

    @GetMapping(path = "/{workflow}/versions/{version}/dsl", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<JsonNode> export(@PathVariable String workflow, @PathVariable int version) {
        WorkflowSnapshot snapshot = queries.atVersion(workflow, version);
        return ResponseEntity.ok()
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + snapshot.name() + "-v" + version + ".json\"")
                .body(snapshot.dsl());
    }

    @PostMapping("/{workflow}/versions/{version}/restore")
    ResponseEntity<WorkflowSnapshot> restore(@PathVariable String workflow, @PathVariable int version,
                                             @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
                                             Principal principal) {
        WorkflowSnapshot result = restoring.restore(workflow, version, IfMatch.parse(ifMatch).version(),
                Authors.of(principal));
        return ResponseEntity.ok().eTag(IfMatch.etag(result.version())).body(result);
    }

    @GetMapping("/{workflow}/diff")
    JsonNode diff(@PathVariable String workflow, @RequestParam int from, @RequestParam int to) {
        return queries.diff(workflow, from, to).toJson();
    }

    @GetMapping("/{workflow}/tags")
    Map<String, Integer> tags(@PathVariable String workflow) {
        return queries.tags(queries.workflow(workflow).id());
    }

    @PutMapping("/{workflow}/tags/{tag}")
    TagWorkflow.TagView tag(@PathVariable String workflow, @PathVariable String tag,
                            @RequestBody(required = false) String body, Principal principal) {
        return tagging.tag(workflow, tag, requestedVersion(body), Authors.of(principal));
    }

    @DeleteMapping("/{workflow}/tags/{tag}")
    ResponseEntity<Void> untag(@PathVariable String workflow, @PathVariable String tag) {
        tagging.untag(workflow, tag);
        return ResponseEntity.noContent().build();
    }

    /** The version in a tag request body {@code {"version": 3}}; none (latest) when the body is empty. */
    private Integer requestedVersion(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        JsonNode version = documents.parse(body).get("version");
        if (version == null || version.isNull()) {
            return null;
        }
        if (!version.isIntegralNumber() || version.asInt() < 1) {
            throw new BadRequestException("Expected \"version\" to be a version number (1 or more), but found "
                    + version, "/version");
        }
        return version.asInt();
    }
}
