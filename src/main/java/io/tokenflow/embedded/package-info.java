/**
 * Zero set-up: starts real, embedded PostgreSQL and Redis servers when no external ones are configured,
 * keeping their data under {@code tokenflow.embedded.data-dir}.
 */
package io.tokenflow.embedded;
