/** Web plumbing only: layout, error handling (RFC 7807 for the API), request limits, htmx and WebSocket config. */
package io.tokenflow.web;
