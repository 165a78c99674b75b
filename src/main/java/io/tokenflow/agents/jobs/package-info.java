/**
 * The seed-001 external agent runner protocol: an agent node's job goes to the {@code agent:jobs} list, its result
 * comes back on {@code agent:results:<job_id>} (see docs/agents.md for both JSON shapes).
 */
package io.tokenflow.agents.jobs;
