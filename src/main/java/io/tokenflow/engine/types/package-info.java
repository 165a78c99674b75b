/** Node types: the built-in ones and the catalog port through which registered custom types are known. */
package io.tokenflow.engine.types;
