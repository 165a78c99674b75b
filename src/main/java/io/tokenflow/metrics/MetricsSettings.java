package io.tokenflow.metrics;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How often the deployment-wide gauges are read.
 *
 * @param refreshInterval the time between two reads of the task queues, the dead-letter queue and the approvals
 * @param workerSeen      how recently a consumer must have read its stream to count as a worker (busy or idle)
 */
@ConfigurationProperties("tokenflow.metrics")
public record MetricsSettings(@DefaultValue("10s") Duration refreshInterval, @DefaultValue("60s") Duration workerSeen) {

    public MetricsSettings {
        if (refreshInterval.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("Expected tokenflow.metrics.refresh-interval of at least 100ms, but found "
                    + refreshInterval);
        }
        if (workerSeen.isNegative() || workerSeen.isZero()) {
            throw new IllegalArgumentException("Expected tokenflow.metrics.worker-seen above 0, but found " + workerSeen);
        }
    }
}
