/**
 * {@code execute_pipeline}: the ten data primitives an agent chains (http_request, table_sort, table_filter,
 * table_select, top_k, groupby, join, jq_transform, regex_extract, parse_date), each bounded in size and time.
 */
package io.tokenflow.agents.pipeline;
