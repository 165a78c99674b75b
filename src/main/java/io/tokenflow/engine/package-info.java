/**
 * The engine: plain, deterministic Java. DSL in, immutable IR out, routing decisions as pure functions.
 * No Spring, JPA or Redis types here (an ArchUnit test keeps it so); infrastructure adapts around it.
 */
package io.tokenflow.engine;
