package io.tokenflow.engine.types;

import java.util.List;
import java.util.Optional;

/** The node types a workflow may use. Implementations combine the built-in types with registered ones. */
public interface NodeTypeCatalog {

    Optional<NodeTypeSpec> find(String name);

    List<NodeTypeSpec> all();
}
