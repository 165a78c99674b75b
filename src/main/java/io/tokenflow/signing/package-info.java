/**
 * Signed worker signals: worker keys (PostgreSQL), the HMAC-SHA256 over a signal's canonical form, the signing of this
 * instance's own signals and the check of every signal the coordinator reads (docs/worker-protocol.md §6).
 */
package io.tokenflow.signing;
