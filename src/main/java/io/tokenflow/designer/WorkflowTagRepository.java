package io.tokenflow.designer;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface WorkflowTagRepository extends JpaRepository<WorkflowTag, WorkflowTag.Key> {

    List<WorkflowTag> findByWorkflowIdOrderByTag(UUID workflowId);

    List<WorkflowTag> findByWorkflowIdIn(java.util.Collection<UUID> workflowIds);

    Optional<WorkflowTag> findByWorkflowIdAndTag(UUID workflowId, String tag);
}
