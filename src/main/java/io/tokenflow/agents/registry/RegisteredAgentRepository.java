package io.tokenflow.agents.registry;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

interface RegisteredAgentRepository extends JpaRepository<RegisteredAgent, RegisteredAgent.Key> {

    List<RegisteredAgent> findByTenantIdOrderByName(String tenantId);

    List<RegisteredAgent> findAllByOrderByTenantIdAscNameAsc();
}
