/**
 * Workflow triggers: cron schedules fired once per tick across instances (claimed in PostgreSQL) and webhooks
 * authenticated by a per-trigger secret or HMAC signature; both start the workflow's newest version.
 */
package io.tokenflow.triggers;
