/** The authored model: the JSON workflow DSL, its published schema, and reading it into records with diagnostics. */
package io.tokenflow.engine.dsl;
