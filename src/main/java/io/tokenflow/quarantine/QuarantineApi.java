package io.tokenflow.quarantine;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The quarantine over REST: the entries set aside, newest first, with their raw text and reason. */
@RestController
class QuarantineApi {

    private final Quarantine quarantine;

    QuarantineApi(Quarantine quarantine) {
        this.quarantine = quarantine;
    }

    @GetMapping("/api/v1/quarantine")
    List<QuarantinedEntry> list() {
        return quarantine.newest();
    }
}
