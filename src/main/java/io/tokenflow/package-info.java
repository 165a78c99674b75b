/** Tokenflow: one Spring Boot application hosting the designer, the REST API, the coordinator and the workers. */
package io.tokenflow;
