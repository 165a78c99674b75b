package io.tokenflow.web;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Limits on what users and agents may send.
 *
 * @param maxDocumentBytes   largest API request body accepted
 * @param maxNodes           most nodes a workflow may have
 * @param maxPatchOperations most operations one JSON Patch may have
 */
@ConfigurationProperties("tokenflow.limits")
public record LimitsSettings(long maxDocumentBytes, int maxNodes, int maxPatchOperations) {

    public LimitsSettings {
        if (maxDocumentBytes <= 0 || maxNodes <= 0 || maxPatchOperations <= 0) {
            throw new IllegalArgumentException("Expected positive tokenflow.limits, but found " + maxDocumentBytes
                    + "/" + maxNodes + "/" + maxPatchOperations);
        }
    }
}
