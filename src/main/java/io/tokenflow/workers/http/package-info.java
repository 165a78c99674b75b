/** The {@code http} worker: one templated HTTP call per token, sent with the token id as its idempotency key. */
package io.tokenflow.workers.http;
