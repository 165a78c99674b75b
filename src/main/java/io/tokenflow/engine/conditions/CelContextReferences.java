package io.tokenflow.engine.conditions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelSourceLocation;
import dev.cel.common.Operator;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.parser.CelParser;
import dev.cel.parser.CelParserFactory;
import dev.cel.parser.CelStandardMacro;

/**
 * The places a CEL expression reads {@code ctx}: {@code ctx.<node>} and {@code ctx['<node>']} name a node; any other
 * use of {@code ctx} (alone, or indexed by a computed key) names none, which the compiler refuses so that the nodes
 * a condition reads are always known. A comprehension variable called {@code ctx} hides the context.
 */
final class CelContextReferences {

    static final String CTX = "ctx";

    /** Parses without type-checking, for reading references back from stored IR. */
    private static final CelParser PARSER = CelParserFactory.standardCelParserBuilder()
            .setOptions(CelOptions.current().build()).setStandardMacros(CelStandardMacro.STANDARD_MACROS).build();

    private CelContextReferences() {
    }

    /**
     * One use of {@code ctx}.
     *
     * @param node the node named, or null when the use names none
     */
    record Reference(String node, int line, int column) {
        String position() {
            return line <= 0 ? "" : " at line " + line + ", column " + column;
        }
    }

    static List<Reference> in(CelAbstractSyntaxTree ast) {
        List<Reference> references = new ArrayList<>();
        CelNavigableAst.fromAst(ast).getRoot().allNodes()
                .filter(expr -> expr.getKind() == CelExpr.ExprKind.Kind.IDENT)
                .filter(expr -> CTX.equals(expr.expr().ident().name()) && !shadowed(expr))
                .forEach(expr -> references.add(reference(expr, ast)));
        return references;
    }

    /** The references of an expression that may not parse (then there are none). */
    static List<Reference> in(String expression) {
        try {
            var result = PARSER.parse(expression);
            return result.hasError() ? List.of() : in(result.getAst());
        } catch (Exception | StackOverflowError e) {
            return List.of();
        }
    }

    private static Reference reference(CelNavigableExpr ident, CelAbstractSyntaxTree ast) {
        CelNavigableExpr parent = ident.parent().orElse(null);
        String node = null;
        if (parent != null && parent.getKind() == CelExpr.ExprKind.Kind.SELECT
                && parent.expr().select().operand().id() == ident.id()) {
            node = parent.expr().select().field();
        } else if (parent != null && isIndexBy(parent, ident)) {
            node = parent.expr().call().args().get(1).constant().stringValue();
        }
        Optional<CelSourceLocation> location = Optional.ofNullable(ast.getSource().getPositionsMap().get(ident.id()))
                .flatMap(offset -> ast.getSource().getOffsetLocation(offset));
        return new Reference(node, location.map(CelSourceLocation::getLine).orElse(0),
                location.map(l -> l.getColumn() + 1).orElse(0));
    }

    private static boolean isIndexBy(CelNavigableExpr parent, CelNavigableExpr ident) {
        if (parent.getKind() != CelExpr.ExprKind.Kind.CALL) {
            return false;
        }
        var call = parent.expr().call();
        return call.function().equals(Operator.INDEX.getFunction()) && call.args().size() == 2
                && call.args().get(0).id() == ident.id()
                && call.args().get(1).getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && call.args().get(1).constant().getKind() == CelConstant.Kind.STRING_VALUE;
    }

    private static boolean shadowed(CelNavigableExpr ident) {
        for (var at = ident.parent(); at.isPresent(); at = at.get().parent()) {
            CelExpr expr = at.get().expr();
            if (expr.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION
                    && (CTX.equals(expr.comprehension().iterVar()) || CTX.equals(expr.comprehension().accuVar()))) {
                return true;
            }
        }
        return false;
    }
}
