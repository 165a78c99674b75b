package io.tokenflow.nodetypes;

import org.springframework.data.jpa.repository.JpaRepository;

interface RegisteredNodeTypeRepository extends JpaRepository<RegisteredNodeType, String> {
}
