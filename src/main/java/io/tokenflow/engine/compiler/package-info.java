/**
 * DSL → IR. {@link io.tokenflow.engine.compiler.WorkflowCompiler} runs small passes (desugaring, node checks, graph
 * checks, references, conditions, one compiler per node kind) and returns every problem at once.
 */
package io.tokenflow.engine.compiler;
