package io.tokenflow.engine.compiler;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.conditions.ConditionCompiler;
import io.tokenflow.engine.conditions.JsonSchemas;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.DslReader;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.PlanImporter;
import io.tokenflow.engine.dsl.WorkflowDefinition;
import io.tokenflow.engine.dsl.WorkflowSchema;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.types.NodeKind;
import io.tokenflow.engine.types.NodeTypeCatalog;
import io.tokenflow.engine.types.NodeTypeSpec;
import tools.jackson.databind.JsonNode;

/**
 * Compiles a workflow document (the graph DSL, or a seed-004 sequential plan, which is converted first) into IR.
 * Runs every check and returns all problems at once; IR is produced only when there is no error.
 * Thread-safe and stateless between calls.
 */
public final class WorkflowCompiler {

    private final NodeTypeCatalog defaultTypes;
    private final DslReader reader = new DslReader(WorkflowSchema.get());
    private final NodeChecks nodeChecks = new NodeChecks();
    private final Desugarer desugarer = new Desugarer();
    private final TargetChecks targetChecks = new TargetChecks();
    private final GraphChecks graphChecks = new GraphChecks();
    private final ReferenceChecks referenceChecks = new ReferenceChecks();
    private final JoinChecks joinChecks = new JoinChecks();
    private final HeldNodeCompiler heldNodes = new HeldNodeCompiler();
    private final CompensationCompiler compensations = new CompensationCompiler(nodeChecks);
    private final Map<NodeKind, NodeKindCompiler> kindCompilers = new EnumMap<>(NodeKind.class);
    private final IrAssembler assembler;
    private final TriggerChecks triggerChecks;
    private final JsonSchemas inputSchemas = new JsonSchemas();

    /**
     * @param defaultTypes the node types used by {@link #compile(JsonNode)}
     * @param conditions   compiles the conditions of branches, loops and edges
     */
    public WorkflowCompiler(NodeTypeCatalog defaultTypes, ConditionCompiler conditions) {
        this(defaultTypes, conditions, CronSyntax.NONE);
    }

    /**
     * @param defaultTypes the node types used by {@link #compile(JsonNode)}
     * @param conditions   compiles the conditions of branches, loops and edges
     * @param cron         parses the schedules of cron triggers
     */
    public WorkflowCompiler(NodeTypeCatalog defaultTypes, ConditionCompiler conditions, CronSyntax cron) {
        this.defaultTypes = defaultTypes;
        this.triggerChecks = new TriggerChecks(cron);
        this.assembler = new IrAssembler(conditions);
        for (NodeKindCompiler compiler : List.of(new TaskNodeCompiler(), new AgentNodeCompiler(), new HumanNodeCompiler())) {
            kindCompilers.put(compiler.kind(), compiler);
        }
    }

    public CompilationResult compile(JsonNode document) {
        return compile(document, defaultTypes);
    }

    /** Compiles against the given node types (e.g. a snapshot including registered custom types). */
    public CompilationResult compile(JsonNode document, NodeTypeCatalog types) {
        Diagnostics diagnostics = new Diagnostics();
        JsonNode dsl = PlanImporter.isPlan(document) ? PlanImporter.toWorkflow(document, diagnostics) : document;
        if (diagnostics.hasErrors()) {
            return new CompilationResult(null, null, diagnostics.all());
        }
        Optional<WorkflowDefinition> definition = reader.read(dsl, diagnostics);
        if (definition.isEmpty()) {
            return new CompilationResult(dsl, null, diagnostics.all());
        }
        WorkflowIr ir = compile(definition.get(), types, diagnostics);
        JsonNode inputs = definition.get().inputs();
        boolean inputsValid = inputs == null || inputs.isNull() || checkInputs(inputs, diagnostics);
        triggerChecks.check(dsl.get("triggers"), inputsValid ? inputs : null, diagnostics);
        return new CompilationResult(dsl, diagnostics.hasErrors() ? null : ir, diagnostics.all());
    }

    /**
     * The declared inputs are a JSON Schema every run's inputs are checked against: it must be one users may give
     * ({@link JsonSchemas#problem}: no remote reference, no count beyond int, RE2 patterns only, since a backtracking
     * pattern would take a request thread for as long as it likes).
     */
    private boolean checkInputs(JsonNode inputs, Diagnostics diagnostics) {
        Optional<JsonSchemas.Problem> problem = inputSchemas.problem(inputs);
        problem.ifPresent(found -> diagnostics.error("invalid-inputs", null, "/inputs" + found.pointer(),
                found.message()));
        return problem.isEmpty();
    }

    private WorkflowIr compile(WorkflowDefinition workflow, NodeTypeCatalog types, Diagnostics diagnostics) {
        nodeChecks.check(workflow, types, diagnostics);
        targetChecks.checkEdges(workflow, diagnostics);
        DesugaredWorkflow desugared = desugarer.desugar(workflow, types, diagnostics);
        targetChecks.checkPaths(desugared, diagnostics);
        RoutingGraph graph = RoutingGraph.of(desugared);
        graphChecks.check(desugared, graph, diagnostics);
        Map<String, Set<String>> references = new HashMap<>();
        for (NodeDefinition node : desugared.nodes().values()) {
            references.put(node.id(), referenceChecks.check(node, desugared, graph, diagnostics));
            joinChecks.check(node, List.copyOf(graph.predecessors(node.id())), desugared, graph, diagnostics);
            types.find(node.type()).map(NodeTypeSpec::kind)
                    .ifPresent(kind -> kindCompilers.get(kind).check(node, diagnostics));
            heldNodes.check(node, diagnostics);
        }
        WorkflowIr ir = assembler.assemble(desugared, graph, references, types, diagnostics)
                .withCompensation(compensations.compensators(workflow, types, diagnostics),
                        compensations.compensateOn(workflow, diagnostics));
        if (ir.terminalNodes().isEmpty() && !ir.nodes().isEmpty()) {
            diagnostics.error("no-terminal", null, "/nodes", "Expected at least one terminal node (where a path "
                    + "ends), but every node emits to another node; the run could never complete");
        }
        return ir;
    }

    /** Every node kind has a compiler; checked by a test. */
    Set<NodeKind> kindsWithCompilers() {
        return kindCompilers.keySet();
    }
}
