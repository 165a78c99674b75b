/**
 * Conditions of branch rules, loops and edges: the six seed types (cel, jsonpath, schema_validation,
 * cross_node_comparison, composite, python_sandbox) compiled and checked when the workflow compiles and evaluated,
 * bounded in time and work, behind {@link io.tokenflow.engine.conditions.ConditionEngine}.
 */
package io.tokenflow.engine.conditions;
