package io.tokenflow.security;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

interface ApiTokenRepository extends JpaRepository<ApiToken, UUID> {

    Optional<ApiToken> findByTokenHash(String tokenHash);

    List<ApiToken> findByOwnerAndTenantOrderByCreatedAtDesc(String owner, String tenant);

    Optional<ApiToken> findByIdAndOwnerAndTenant(UUID id, String owner, String tenant);

    /** Writes only {@code last_used_at}, and only when stale, so it never races a revocation. */
    @Transactional
    @Modifying
    @Query("""
            update ApiToken t set t.lastUsedAt = :now
            where t.id = :id and (t.lastUsedAt is null or t.lastUsedAt < :staleBefore)""")
    int recordUse(@Param("id") UUID id, @Param("now") Instant now, @Param("staleBefore") Instant staleBefore);
}
