package io.tokenflow.triggers;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Triggers.
 *
 * @param enabled           whether this instance fires cron triggers (webhooks are always answered)
 * @param pollInterval      how often this instance looks for due cron ticks
 * @param misfireThreshold  a tick older than this when it is found counts as missed (the trigger's missed policy)
 * @param claimTimeout      a claimed tick whose start has not finished after this long is taken over by any instance
 * @param secretKey         base64 of a 32-byte AES key sealing HMAC webhook secrets; without one, HMAC secrets cannot
 *                          be issued (secret-header webhooks need none: only a hash of theirs is stored)
 */
@ConfigurationProperties("tokenflow.triggers")
public record TriggerSettings(@DefaultValue("true") boolean enabled, Duration pollInterval,
                              Duration misfireThreshold, Duration claimTimeout, String secretKey) {

    public TriggerSettings {
        if (pollInterval == null || pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("Expected tokenflow.triggers.poll-interval > 0, but found "
                    + pollInterval);
        }
        if (misfireThreshold == null || misfireThreshold.compareTo(pollInterval) < 0) {
            throw new IllegalArgumentException("Expected tokenflow.triggers.misfire-threshold >= poll-interval, but "
                    + "found " + misfireThreshold);
        }
        if (claimTimeout == null || claimTimeout.compareTo(pollInterval) < 0) {
            throw new IllegalArgumentException("Expected tokenflow.triggers.claim-timeout >= poll-interval, but found "
                    + claimTimeout);
        }
    }
}
