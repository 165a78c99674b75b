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

    Optional<Workflow> findByName(String name);

    boolean existsByName(String name);

    Optional<Workflow> findFirstByIdNotOrderByUpdatedAtDesc(UUID id);

    @Query("select w.name from Workflow w where w.id <> :id order by w.name")
    List<String> findNamesOtherThan(UUID id, Pageable pageable);

    /** Locks the row so that concurrent patches of one workflow are serialised. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select w from Workflow w where w.id = :id")
    Optional<Workflow> findForUpdate(UUID id);

    @Query("select w from Workflow w where lower(w.name) like lower(concat('%', :text, '%')) "
            + "or lower(coalesce(w.description, '')) like lower(concat('%', :text, '%'))")
    Page<Workflow> search(String text, Pageable pageable);
}
