/** The engine benchmark: a main class that drives the real engine and prints figures (never a timed test). */
package io.tokenflow.benchmark;
