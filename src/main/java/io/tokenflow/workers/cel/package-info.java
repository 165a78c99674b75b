/**
 * CEL for the data workers: the engine's bounded CEL ({@code io.tokenflow.engine.cel}) over the workers' variables,
 * with the workers' limits.
 */
package io.tokenflow.workers.cel;
