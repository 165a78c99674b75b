/**
 * Which parts of the application an instance runs ({@code tokenflow.roles}): web, coordinator, supervisor, workers,
 * live. The same jar scales out as N instances of each, all sharing one Redis and one PostgreSQL.
 */
package io.tokenflow.roles;
