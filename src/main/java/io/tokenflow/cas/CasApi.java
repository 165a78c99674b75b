package io.tokenflow.cas;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.NotFoundException;

/** Reads stored content by hash, for workers in any language that receive {@code input_ref}. */
@RestController
class CasApi {

    private final CasStore store;

    CasApi(CasStore store) {
        this.store = store;
    }

    @GetMapping("/api/v1/cas/{hash}")
    ResponseEntity<byte[]> get(@PathVariable String hash) {
        if (!hash.matches("sha256:[0-9a-f]{64}")) {
            throw new BadRequestException("Expected sha256:<64 hex digits>, but found " + hash, "path:hash");
        }
        byte[] content = store.get(CasStore.SCHEME + hash)
                .orElseThrow(() -> new NotFoundException("Expected stored content " + hash + ", but there is none"));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).body(content);
    }
}
