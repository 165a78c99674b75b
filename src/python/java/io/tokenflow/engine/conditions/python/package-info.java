/**
 * The GraalPy runtime of python_sandbox conditions: compiled only by the {@code python} Maven profile and found
 * through {@link java.util.ServiceLoader}, so the default build has no GraalPy classes.
 */
package io.tokenflow.engine.conditions.python;
