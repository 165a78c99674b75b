/**
 * RFC 6902 JSON Patch (parse, apply, diff) and RFC 6901 JSON Pointer on Jackson 3 trees.
 * Plain Java: no framework types; patches are immutable and application is atomic.
 */
package io.tokenflow.engine.patch;
