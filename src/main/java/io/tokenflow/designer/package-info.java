/**
 * Workflow definitions: workflows, their immutable versions (each made by an RFC 6902 patch), tags, compilation
 * and the definitions REST API and pages.
 */
package io.tokenflow.designer;
