package io.tokenflow.runs;

import java.security.Principal;
import java.util.UUID;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/v1/runs/{id}/patch}: an RFC 6902 patch to a running run's definition, against the revision named by
 * {@code If-Match} (the run's {@code irRevision}, {@code "0"} before any patch). Answers the new revision as ETag.
 */
@RestController
class RunPatchApi {

    static final String JSON_PATCH = "application/json-patch+json";

    private final PatchRun patching;

    RunPatchApi(PatchRun patching) {
        this.patching = patching;
    }

    @PostMapping(path = "/api/v1/runs/{id}/patch", consumes = {JSON_PATCH, "application/json"})
    ResponseEntity<PatchRun.PatchedRun> patch(@PathVariable UUID id,
                                              @RequestHeader(name = "If-Match", required = false) String ifMatch,
                                              @RequestBody String body, Principal principal) {
        int expected = revision(ifMatch);
        JsonNode document = RequestJson.parse(body);
        PatchRun.PatchedRun patched = patching.patch(id, expected, document,
                principal == null ? "anonymous" : principal.getName(), false);
        return ResponseEntity.ok().eTag("\"" + patched.revision() + "\"").body(patched);
    }

    /** The revision in an {@code If-Match} header: {@code 2}, {@code "2"} or {@code W/"2"}. */
    static int revision(String header) {
        if (header == null || header.isBlank()) {
            throw new BadRequestException(428, "Expected an If-Match header naming the run revision this patch applies "
                    + "to (e.g. If-Match: \"0\" before any patch), but there is none", "header:If-Match");
        }
        String value = header.trim();
        value = value.startsWith("W/") ? value.substring(2) : value;
        value = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
        if (!value.matches("0|[1-9][0-9]{0,8}")) {
            throw new BadRequestException("Expected If-Match to be a run revision such as \"0\", but found " + header,
                    "header:If-Match");
        }
        return Integer.parseInt(value);
    }
}
