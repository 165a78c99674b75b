package io.tokenflow.nodetypes;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

interface RegisteredNodeTypeRepository extends JpaRepository<RegisteredNodeType, String> {

    List<RegisteredNodeType> findByTenantId(String tenantId);
}
