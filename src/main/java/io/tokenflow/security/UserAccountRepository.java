package io.tokenflow.security;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface UserAccountRepository extends JpaRepository<UserAccount, String> {

    /** Serialises start-up initialisation across instances sharing one database; released at commit. */
    @Modifying
    @Query(value = "LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE", nativeQuery = true)
    void lockForInitialisation();
}
