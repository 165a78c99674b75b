/** The node-type registry: built-in types plus custom types registered for external workers, and its REST API. */
package io.tokenflow.nodetypes;
