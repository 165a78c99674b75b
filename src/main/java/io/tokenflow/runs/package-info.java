/** Runs: starting runs, the runs list and run pages, live view, history and replay. */
package io.tokenflow.runs;
