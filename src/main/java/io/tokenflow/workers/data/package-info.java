/** The data workers {@code transform}, {@code filter} and {@code aggregate}: CEL over a node's input. */
package io.tokenflow.workers.data;
