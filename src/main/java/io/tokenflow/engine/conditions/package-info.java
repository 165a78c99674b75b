/**
 * Conditions of branch rules, loops and edges: compiled once at compile time behind one port. Evaluation of each
 * condition type plugs in here.
 */
package io.tokenflow.engine.conditions;
