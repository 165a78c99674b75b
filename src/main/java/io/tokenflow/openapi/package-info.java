/**
 * The OpenAPI document of the JSON API ({@code /v3/api-docs}, Swagger UI at {@code /swagger-ui.html}): each
 * operation's scope read from the security rules, its problem+json error responses, the security schemes.
 */
package io.tokenflow.openapi;
