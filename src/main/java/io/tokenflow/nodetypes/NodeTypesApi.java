package io.tokenflow.nodetypes;

import java.security.Principal;
import java.util.List;
import java.util.stream.IntStream;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.engine.types.NodeTypeSpec;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.web.NotFoundException;

/** The node-type registry: every type with its display name, config JSON Schema and the stream its workers read. */
@RestController
@RequestMapping("/api/v1/node-types")
class NodeTypesApi {

    private final NodeTypeRegistry registry;
    private final RegisterNodeType registering;
    private final RedisKeys keys;

    NodeTypesApi(NodeTypeRegistry registry, RegisterNodeType registering, RedisKeys keys) {
        this.registry = registry;
        this.registering = registering;
        this.keys = keys;
    }

    @GetMapping
    List<NodeTypeView> list() {
        return registry.snapshot().all().stream().map(this::view).toList();
    }

    @GetMapping("/{name}")
    NodeTypeView get(@PathVariable String name) {
        return registry.snapshot().find(name).map(this::view)
                .orElseThrow(() -> new NotFoundException("Expected a node type named '" + name + "', but there is none"));
    }

    @PutMapping(path = "/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    NodeTypeView register(@PathVariable String name, @RequestBody String body, Principal principal) {
        registering.register(name, body, principal == null ? "anonymous" : principal.getName());
        return get(name);
    }

    @DeleteMapping("/{name}")
    ResponseEntity<Void> remove(@PathVariable String name) {
        registering.remove(name);
        return ResponseEntity.noContent().build();
    }

    private NodeTypeView view(NodeTypeSpec type) {
        List<String> streams = type.worker() == null ? List.of()
                : IntStream.range(0, keys.shards()).mapToObj(shard -> keys.taskStream(type.worker(), shard)).toList();
        return new NodeTypeView(type.name(), type.displayName(), type.description(), type.category(),
                type.kind().label(), type.builtIn(), type.configSchema(), type.worker(),
                streams.isEmpty() ? null : streams.get(0), streams,
                type.worker() == null ? null : keys.workerGroup(type.worker()),
                type.worker() == null ? null : keys.workerAcl(type.worker()));
    }
}
