package io.tokenflow.security;

/** Where a row of {@code users} came from. */
enum UserSource {
    /** From {@code tokenflow.security.users}; rewritten from configuration on every start. */
    CONFIGURATION,
    /** The {@code admin} created with a random password when no user existed and none was configured. */
    GENERATED,
    /** Created by an administrator. */
    ADMIN
}
