/**
 * The quarantine: stream entries that could not be processed, kept with their raw text and the reason (written by the
 * readers of the streams), and shown to operators on the {@code /quarantine} page and the REST API.
 */
package io.tokenflow.quarantine;
