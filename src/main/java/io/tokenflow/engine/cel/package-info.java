/**
 * CEL for the whole application: expressions compiled once (cached) and evaluated within iteration, parser and time
 * limits, over plain Java values converted from and back to JSON. Conditions and the data workers both use it.
 */
package io.tokenflow.engine.cel;
