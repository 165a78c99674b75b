/** Runs: starting and cancelling them, reading their state, events and replays, and the run pages. */
package io.tokenflow.runs;
