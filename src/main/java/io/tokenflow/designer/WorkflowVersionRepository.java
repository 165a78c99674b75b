package io.tokenflow.designer;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface WorkflowVersionRepository extends JpaRepository<WorkflowVersion, WorkflowVersion.Key> {

    Optional<WorkflowVersion> findByWorkflowIdAndVersion(UUID workflowId, int version);

    List<WorkflowVersion> findByWorkflowIdOrderByVersionDesc(UUID workflowId);
}
