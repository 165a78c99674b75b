package io.tokenflow.coordinator;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.BadRequestException;

/** Refused completion signals, newest first. */
@RestController
class RejectedSignalsApi {

    private final RejectedSignals signals;

    RejectedSignalsApi(RejectedSignals signals) {
        this.signals = signals;
    }

    @GetMapping("/api/v1/signals/rejected")
    List<RejectedSignals.RejectedSignal> recent(@RequestParam(required = false) String run,
                                                @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > 1000) {
            throw new BadRequestException("Expected limit between 1 and 1000, but found " + limit, "query:limit");
        }
        return signals.recent(run, limit);
    }
}
