package io.tokenflow.engine.conditions;

import java.util.Map;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.SimpleType;
import io.tokenflow.engine.cel.CelExpressionException;
import io.tokenflow.engine.cel.CelExpressions;
import io.tokenflow.engine.cel.CelProgram;
import io.tokenflow.engine.cel.CelValues;
import tools.jackson.databind.JsonNode;

/**
 * {@code {"type": "cel", "expression": "output.score >= 80 && ctx.enrich.output.revenue > 100000"}}: a CEL
 * expression over {@code output}, {@code ctx.<node>.output}, {@code input} (and {@code current.output}, as cross-node
 * expressions write it) that must give a bool. Checked and type-checked when the workflow compiles; evaluated within
 * the iteration budget and the evaluation's deadline.
 */
final class CelCondition implements ConditionType {

    private final CelExpressions cel;
    private final int maxComprehensionDepth;

    CelCondition(ConditionLimits limits) {
        this.maxComprehensionDepth = limits.maxComprehensionDepth();
        this.cel = new CelExpressions(limits.cel(), Map.of("output", SimpleType.DYN, "ctx", SimpleType.DYN,
                "input", SimpleType.DYN, "current", SimpleType.DYN));
    }

    @Override
    public String name() {
        return "cel";
    }

    @Override
    public boolean check(JsonNode condition, ConditionCheck check) {
        return checkExpression(condition.path("expression"), "/expression", check);
    }

    @Override
    public void prepare(JsonNode condition, ConditionEngine engine) {
        prepare(condition.path("expression").asString());
    }

    /** Compiles an expression (or finds it cached). */
    void prepare(String expression) {
        try {
            cel.compile(expression);
        } catch (CelExpressionException e) {
            throw new ConditionEvaluationException(e.getMessage(), e);
        }
    }

    @Override
    public boolean evaluate(JsonNode condition, ConditionEvaluation evaluation) {
        return decide(condition.path("expression").asString(), evaluation);
    }

    /** Checks an expression found at {@code member}: it compiles, gives a bool and names existing nodes in ctx. */
    boolean checkExpression(JsonNode expression, String member, ConditionCheck check) {
        if (!expression.isString() || expression.asString().isBlank()) {
            return check.error(member, "Expected a CEL expression (text), but found " + expression);
        }
        CelProgram program;
        try {
            program = cel.compile(expression.asString());
        } catch (CelExpressionException e) {
            return check.error(member, e.getMessage());
        }
        var type = program.ast().getResultType();
        boolean valid = true;
        if (type.kind() != CelKind.BOOL && type.kind() != CelKind.DYN) {
            valid = check.error(member, "Expected CEL condition '" + expression.asString() + "' to give a bool, but "
                    + "it gives " + type.name());
        }
        int depth = comprehensionDepth(program.ast());
        if (depth > maxComprehensionDepth) {
            valid = check.error(member, "Expected comprehensions (all, exists, exists_one, map, filter) nested at most "
                    + maxComprehensionDepth + " deep, since each level multiplies the work, but they are nested " + depth
                    + " deep");
        }
        for (CelContextReferences.Reference reference : CelContextReferences.in(program.ast())) {
            valid &= checkReference(reference, member, check);
        }
        return valid;
    }

    /** Evaluates an expression to true or false. */
    boolean decide(String expression, ConditionEvaluation evaluation) {
        Object result;
        try {
            result = cel.evaluate(cel.compile(expression), evaluation.celVariables(),
                    evaluation.deadline().giveUpAtNanos());
        } catch (CelExpressionException e) {
            throw new ConditionEvaluationException(e.getMessage(), e);
        }
        if (result instanceof Boolean bool) {
            return bool;
        }
        throw new ConditionEvaluationException("Expected CEL condition '" + expression + "' to give true or false, "
                + "but it gave " + CelValues.toJson(result));
    }

    /** How many comprehensions run inside one another's loop (a comprehension over another's result does not). */
    private static int comprehensionDepth(CelAbstractSyntaxTree ast) {
        return CelNavigableAst.fromAst(ast).getRoot().allNodes()
                .filter(expr -> expr.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION)
                .mapToInt(CelCondition::loopsAround).max().orElse(0);
    }

    private static int loopsAround(CelNavigableExpr comprehension) {
        int depth = 1;
        long child = comprehension.id();
        for (var at = comprehension.parent(); at.isPresent(); at = at.get().parent()) {
            CelExpr expr = at.get().expr();
            if (expr.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION
                    && (expr.comprehension().loopStep().id() == child
                    || expr.comprehension().loopCondition().id() == child)) {
                depth++;
            }
            child = expr.id();
        }
        return depth;
    }

    private static boolean checkReference(CelContextReferences.Reference reference, String member,
                                          ConditionCheck check) {
        if (reference.node() == null) {
            return check.error(member, "Expected ctx to be followed by a node id (ctx.<node>.output)"
                    + reference.position() + ", but it is used on its own or with a computed key");
        }
        return check.existingNode(reference.node(), member, "ctx." + reference.node() + reference.position());
    }
}
