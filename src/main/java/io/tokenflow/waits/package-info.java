/**
 * Nodes the engine holds instead of a worker: timers ({@code wait}) and waits for signals ({@code signal}), held
 * durably in Redis and taken out once (a due time, a signal sent through {@code POST /api/v1/signals/{name}}).
 */
package io.tokenflow.waits;
