/**
 * CEL for the data workers: expressions compiled once and cached, evaluated within iteration and time limits, over
 * plain Java values converted from and back to JSON.
 */
package io.tokenflow.workers.cel;
