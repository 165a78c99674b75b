package io.tokenflow.engine.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.runtime.CelRuntime;

/** A compiled expression: its text, its (checked) syntax tree and the program that evaluates it. */
public record CelProgram(String expression, CelAbstractSyntaxTree ast, CelRuntime.Program program) {
}
