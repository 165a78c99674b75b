package io.tokenflow.engine.compiler;

import io.tokenflow.engine.dsl.Target;

/** An unconditional edge after desugaring; {@code to.pointer()} says where the author wrote it. */
record StaticEdge(String from, Target to) {
}
