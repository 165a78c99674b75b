package io.tokenflow.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Limits on what users and agents may send.
 *
 * @param maxDocumentBytes   largest API request body accepted, and largest workflow document stored (a small patch
 *                           may make a large document: copying a subtree again and again)
 * @param maxNodes           most nodes a workflow may have
 * @param maxPatchOperations most operations one JSON Patch may have
 * @param maxDocumentDepth   deepest nesting of objects and arrays a stored workflow document may have
 */
@ConfigurationProperties("tokenflow.limits")
public record LimitsSettings(long maxDocumentBytes, int maxNodes, int maxPatchOperations,
                             @DefaultValue("64") int maxDocumentDepth) {

    public LimitsSettings {
        if (maxDocumentBytes <= 0 || maxNodes <= 0 || maxPatchOperations <= 0 || maxDocumentDepth <= 0) {
            throw new IllegalArgumentException("Expected positive tokenflow.limits, but found " + maxDocumentBytes
                    + "/" + maxNodes + "/" + maxPatchOperations + "/" + maxDocumentDepth);
        }
    }
}
