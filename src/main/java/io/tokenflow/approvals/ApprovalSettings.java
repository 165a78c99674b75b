package io.tokenflow.approvals;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Approval timeouts.
 *
 * @param timeoutCheckInterval how often this instance looks for pending approvals past their timeout (0 disables it)
 */
@ConfigurationProperties("tokenflow.approvals")
public record ApprovalSettings(Duration timeoutCheckInterval) {

    public ApprovalSettings {
        if (timeoutCheckInterval == null || timeoutCheckInterval.isNegative()) {
            throw new IllegalArgumentException("Expected tokenflow.approvals.timeout-check-interval >= 0, but found "
                    + timeoutCheckInterval);
        }
    }
}
