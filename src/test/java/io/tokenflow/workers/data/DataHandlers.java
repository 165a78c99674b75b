package io.tokenflow.workers.data;

import java.time.Duration;

import io.tokenflow.workers.WorkerSettings;
import io.tokenflow.workers.cel.CelEngine;

/** One CEL engine with the default limits for the data handler tests. */
final class DataHandlers {

    static final CelEngine CEL = new CelEngine(new WorkerSettings.Cel(Duration.ofMillis(100), 10_000, 100));

    private DataHandlers() {
    }
}
