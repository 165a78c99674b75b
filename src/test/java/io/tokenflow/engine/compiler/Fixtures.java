package io.tokenflow.engine.compiler;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import io.tokenflow.engine.conditions.ConditionEngine;
import io.tokenflow.engine.types.BuiltInNodeTypes;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Workflow fixture files under {@code src/test/resources/workflows/} and a compiler for them. */
final class Fixtures {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final WorkflowCompiler COMPILER = new WorkflowCompiler(BuiltInNodeTypes.get(), ConditionEngine.withDefaults());

    private Fixtures() {
    }

    static JsonNode load(String name) {
        String path = "/workflows/" + name + ".json";
        try (InputStream in = Fixtures.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("Expected a fixture at " + path);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CompilationResult compile(String name) {
        return COMPILER.compile(load(name));
    }
}
