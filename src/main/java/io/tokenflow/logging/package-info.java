/**
 * Structured logging: the correlation fields (run, node, token, node type, trace id) every engine log line about a run
 * carries ({@link io.tokenflow.logging.RunLogContext}). The JSON form is Spring Boot's structured logging
 * (docs/operations.md, "Logs").
 */
package io.tokenflow.logging;
