/** Who may do what: sign-in with roles, scoped bearer API tokens ({@code tf_…}), the filter chains and their rules. */
package io.tokenflow.security;
