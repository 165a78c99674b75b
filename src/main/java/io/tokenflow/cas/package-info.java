/** Content-addressed storage: large payloads, schemas and code stored once by SHA-256 and passed as cas:// refs. */
package io.tokenflow.cas;
