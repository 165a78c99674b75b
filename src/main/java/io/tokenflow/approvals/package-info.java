/** Approvals: human nodes, the approvals inbox, decisions and escalation. */
package io.tokenflow.approvals;
