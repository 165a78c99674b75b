/** The Redis adapter of the engine's routing: streams, consumer groups and the Lua steps; all key names built here. */
package io.tokenflow.coordinator;
