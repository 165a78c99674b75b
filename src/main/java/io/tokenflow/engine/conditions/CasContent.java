package io.tokenflow.engine.conditions;

import java.util.Optional;

/**
 * Reads content-addressed storage for conditions that refer to it ({@code schema_ref}, {@code code_ref}). The
 * application backs it with its CAS; content under a reference never changes, so what is read may be cached forever.
 */
@FunctionalInterface
public interface CasContent {

    /** No store: every reference is unknown. */
    CasContent NONE = reference -> Optional.empty();

    /** The bytes stored under {@code cas://sha256:<hex>}, or empty when nothing is. */
    Optional<byte[]> get(String reference);
}
