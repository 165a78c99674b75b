package io.tokenflow.agents.registry;

import org.springframework.data.jpa.repository.JpaRepository;

interface RegisteredAgentRepository extends JpaRepository<RegisteredAgent, String> {
}
