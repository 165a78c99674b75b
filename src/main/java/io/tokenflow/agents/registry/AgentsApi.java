package io.tokenflow.agents.registry;

import java.util.List;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The agent registry: anyone who reads workflows may list agents; admins register and remove them. */
@RestController
@RequestMapping("/api/v1/agents")
class AgentsApi {

    private final AgentRegistry registry;

    AgentsApi(AgentRegistry registry) {
        this.registry = registry;
    }

    @GetMapping
    List<AgentView> list() {
        return registry.list();
    }

    @GetMapping("/{name}")
    AgentView get(@PathVariable String name) {
        return registry.get(name);
    }

    @PutMapping(path = "/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    AgentView register(@PathVariable String name, @RequestBody String body) {
        return registry.register(name, body);
    }

    @DeleteMapping("/{name}")
    ResponseEntity<Void> remove(@PathVariable String name) {
        registry.remove(name);
        return ResponseEntity.noContent().build();
    }
}
