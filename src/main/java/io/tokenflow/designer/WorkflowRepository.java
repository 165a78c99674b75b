package io.tokenflow.designer;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;

interface WorkflowRepository extends JpaRepository<Workflow, UUID> {

    Optional<Workflow> findByTenantAndName(String tenant, String name);

    boolean existsByTenantAndName(String tenant, String name);

    Page<Workflow> findByTenant(String tenant, Pageable pageable);

    Optional<Workflow> findFirstByTenantAndIdNotOrderByUpdatedAtDesc(String tenant, UUID id);

    @Query("select w.name from Workflow w where w.tenant = :tenant and w.id <> :id order by w.name")
    List<String> findNamesOtherThan(String tenant, UUID id, Pageable pageable);

    /** Locks the row so that concurrent patches of one workflow are serialised. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select w from Workflow w where w.id = :id")
    Optional<Workflow> findForUpdate(UUID id);

    @Query("select w from Workflow w where w.tenant = :tenant and (lower(w.name) like lower(concat('%', :text, '%')) "
            + "or lower(coalesce(w.description, '')) like lower(concat('%', :text, '%')))")
    Page<Workflow> search(String tenant, String text, Pageable pageable);
}
