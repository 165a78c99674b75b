package io.tokenflow.engine.cel;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import dev.cel.common.types.SimpleType;
import org.junit.jupiter.api.Test;

class CelWordingTests {

    private final CelExpressions cel = new CelExpressions(new CelLimits(Duration.ofSeconds(5), 1_000, 100),
            Map.of("output", SimpleType.DYN, "input", SimpleType.DYN, "ctx", SimpleType.DYN));

    @Test
    void saysWhichOperatorLacksItsRightHandSide() {
        assertProblem("output.amount > ", "an expression is missing after '>' at column 15");
        assertProblem("output.a > 1 &&\n", "an expression is missing after '&&' at column 14");
        assertProblem("output.amount >> 3", "an expression is missing after '>' at column 15 (found '>')");
        assertProblem("!", "an expression is missing after '!' at column 1");
    }

    @Test
    void saysWhatCannotBeThere() {
        assertProblem("output.a > 1)", "')' at column 13 is not expected there: it closes no '('");
        assertProblem("output.a >= 1 and output.b", "'and' at column 15 is not expected there: write && for 'and'");
        assertProblem("output.a = 1", "'=' at column 10 is not CEL: write == to compare");
        assertProblem("output.name == \"x", "the string that starts at column 16 is never closed (a \" is missing)");
        assertProblem("@x", "'@' at column 1 is not a character CEL knows");
    }

    @Test
    void saysWhatIsMissingAtTheEnd() {
        assertProblem("(output.a > 1", "')' is missing at column 14 to close the '(' before it");
        assertProblem("output.a in [1, 2", "the expression ends at column 18 where one of ']', ',' should follow");
        assertProblem("output.a ? 1", "the expression ends at column 13 without the ':' part of the conditional '?'");
    }

    @Test
    void namesUnknownNamesAndMismatchedTypesInWords() {
        assertProblem("foo > 1", "'foo' at column 1 is not a known name (the names are ctx, input, output)");
        assertProblem("1 + true", "'+' at column 3 cannot be applied to int and bool");
        assertProblem("output.a.startsWith(1)",
                "startsWith() at column 20 cannot be applied to int (it takes string (string))");
    }

    @Test
    void namesTheLineOfAMultiLineExpression() {
        assertProblem("output.a > 1 &&\n  output.b <", "an expression is missing after '<' at column 12 on line 2");
    }

    private void assertProblem(String expression, String words) {
        assertThatThrownBy(() -> cel.compile(expression)).isInstanceOf(CelExpressionException.class)
                .hasMessage("Expected '" + expression + "' to be a valid CEL expression, but " + words);
    }
}
