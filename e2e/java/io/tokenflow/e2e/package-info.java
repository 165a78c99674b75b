/** Browser tests: Playwright for Java drives a headless Chromium against the whole application on a random port. */
package io.tokenflow.e2e;
