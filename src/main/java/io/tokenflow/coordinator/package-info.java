/** The Redis adapter of the engine's routing: streams, consumer groups, and the Java side of the Lua steps. */
package io.tokenflow.coordinator;
