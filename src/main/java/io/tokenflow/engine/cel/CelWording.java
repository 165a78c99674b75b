package io.tokenflow.engine.cel;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says a CEL compile problem in words a workflow author reads at a glance ("an expression is missing after '>' at
 * column 15") instead of the parser's token lists ("mismatched input '&lt;EOF&gt;' expecting {'[', '{', …}").
 * Written by hand because cel-java reports ANTLR's messages as they are and no library words them; a message this
 * class does not recognise is kept as cel-java gave it, with its position.
 */
final class CelWording {

    private static final Pattern MISMATCHED = Pattern.compile("(?:mismatched|extraneous) input '(.*)' expecting (.*)");
    private static final Pattern MISSING = Pattern.compile("missing '(.*)' at '(.*)'");
    private static final Pattern UNRECOGNISED = Pattern.compile("token recognition error at: '(.*)'");
    private static final Pattern NO_VIABLE = Pattern.compile("no viable alternative at input '(.*)'");
    private static final Pattern UNDECLARED = Pattern.compile("undeclared reference to '([^']*)'.*");
    private static final Pattern OVERLOAD = Pattern.compile(
            "found no matching overload for '([^']*)' applied to '([^']*)'(?: \\(candidates: (.*)\\))?");
    private static final Pattern OPERATOR_FUNCTION = Pattern.compile("^[_!-]*([^_]+?)[_]*$");
    private static final String EOF = "<EOF>";
    private static final List<String> SYNTAX = List.of("mismatched input", "extraneous input", "missing '",
            "token recognition error", "no viable alternative", "Syntax error");
    private static final String OPERATOR_CHARACTERS = "<>=!&|+-*/%?:";

    private final String expression;
    private final Set<String> variables;

    CelWording(String expression, Set<String> variables) {
        this.expression = expression;
        this.variables = variables;
    }

    /** The parser stops being useful after its first syntax error: the later ones follow from it. */
    static List<CelProblem> withoutFollowOnErrors(List<CelProblem> problems) {
        if (!problems.isEmpty() && isSyntaxError(problems.get(0).message())) {
            return List.of(problems.get(0));
        }
        return problems;
    }

    private static boolean isSyntaxError(String message) {
        return SYNTAX.stream().anyMatch(message::startsWith);
    }

    /** The problem in words, naming its column ("'foo' at column 1 is not a known name …"). */
    CelProblem worded(CelProblem problem) {
        Token previous = previousToken(problem.line(), problem.column());
        String words = words(problem.message(), problem.column(), previous);
        if (words == null) {
            return problem;
        }
        boolean namesPrevious = previous != null && words.contains("after '" + previous.text + "'");
        return new CelProblem(namesPrevious ? previous.line : problem.line(), problem.column(), words, true);
    }

    private String words(String message, int column, Token previous) {
        Matcher m;
        if ((m = MISMATCHED.matcher(message)).matches()) {
            return unexpected(m.group(1), m.group(2), column, previous);
        }
        if ((m = MISSING.matcher(message)).matches()) {
            return missing(m.group(1), column);
        }
        if ((m = UNRECOGNISED.matcher(message)).matches()) {
            return unrecognised(m.group(1), column);
        }
        if ((m = NO_VIABLE.matcher(message)).matches()) {
            return "'" + m.group(1).strip() + "' at column " + column + " cannot be read: is something missing there?";
        }
        if ((m = UNDECLARED.matcher(message)).matches()) {
            return "'" + m.group(1) + "' at column " + column + " is not a known name" + (variables.isEmpty() ? ""
                    : " (the names are " + String.join(", ", variables.stream().sorted().toList()) + ")");
        }
        if ((m = OVERLOAD.matcher(message)).matches()) {
            return overload(m.group(1), m.group(2), m.group(3), column);
        }
        return null;
    }

    private static String unexpected(String found, String expecting, int column, Token previous) {
        boolean operand = expecting.contains("IDENTIFIER") && expecting.contains("NUM_INT");
        if (operand) {
            String where = previous == null ? "at column " + column
                    : "after '" + previous.text + "' at column " + previous.column;
            return "an expression is missing " + where + (EOF.equals(found) ? "" : " (found '" + found + "')");
        }
        if (EOF.equals(found) && expecting.contains("':'")) {
            return "the expression ends at column " + column + " without the ':' part of the conditional '?'";
        }
        if (EOF.equals(found)) {
            return "the expression ends at column " + column + " where " + choices(expecting) + " should follow";
        }
        return "'" + found + "' at column " + column + " is not expected there" + hint(found, expecting);
    }

    private static String hint(String found, String expecting) {
        switch (found) {
            case "and": return ": write && for 'and'";
            case "or": return ": write || for 'or'";
            case "not": return ": write ! for 'not'";
            case ")": return ": it closes no '('";
            case "]": return ": it closes no '['";
            default: return expecting.contains(EOF) ? ": the expression could end before it, or an operator "
                    + "(==, &&, ||, +, …) is missing" : "; expected " + choices(expecting);
        }
    }

    private static String missing(String what, int column) {
        if (")".equals(what) || "]".equals(what) || "}".equals(what)) {
            String open = ")".equals(what) ? "(" : "]".equals(what) ? "[" : "{";
            return "'" + what + "' is missing at column " + column + " to close the '" + open + "' before it";
        }
        return "'" + what + "' is missing at column " + column;
    }

    private static String unrecognised(String text, int column) {
        String first = text.isEmpty() ? text : text.substring(0, 1);
        if (first.equals("'") || first.equals("\"")) {
            return "the string that starts at column " + column + " is never closed (a " + first + " is missing)";
        }
        if (first.equals("=")) {
            return "'=' at column " + column + " is not CEL: write == to compare";
        }
        return "'" + first + "' at column " + column + " is not a character CEL knows";
    }

    private static String overload(String function, String arguments, String candidates, int column) {
        Matcher operator = OPERATOR_FUNCTION.matcher(function);
        String name = function.startsWith("_") || function.startsWith("!") || function.startsWith("-")
                ? operator.matches() ? "'" + operator.group(1) + "'" : "'" + function + "'" : function + "()";
        String applied = arguments.replace("dyn.", "").replaceAll("^\\((.*)\\)$", "$1").replace(", ", " and ");
        String words = name + " at column " + column + " cannot be applied to " + (applied.isEmpty() ? "nothing"
                : applied);
        if (candidates != null && !candidates.contains("google.protobuf")) {
            words += " (it takes " + candidates.replace("),(", ") or (").replace(".(", " (") + ")";
        }
        return words;
    }

    private static String choices(String expecting) {
        String set = expecting.replaceAll("^\\{|\\}$", "");
        return set.contains(",") ? "one of " + set : set;
    }

    /** The token that ends just before a 1-based line and column, on that line or an earlier one. */
    private Token previousToken(int line, int column) {
        String[] lines = expression.split("\n", -1);
        if (line < 1 || line > lines.length) {
            return null;
        }
        for (int l = line; l >= 1; l--) {
            int[] points = lines[l - 1].codePoints().toArray();
            int end = (l == line ? Math.min(column - 1, points.length) : points.length) - 1;
            while (end >= 0 && Character.isWhitespace(points[end])) {
                end--;
            }
            if (end >= 0) {
                int start = tokenStart(points, end);
                return new Token(new String(points, start, end - start + 1), l, start + 1);
            }
        }
        return null;
    }

    /** Where the token ending at {@code end} starts: a run of operator characters, or a word. */
    private static int tokenStart(int[] points, int end) {
        boolean operator = OPERATOR_CHARACTERS.indexOf(points[end]) >= 0;
        int start = end;
        while (start > 0 && !Character.isWhitespace(points[start - 1])
                && (OPERATOR_CHARACTERS.indexOf(points[start - 1]) >= 0) == operator
                && (operator || Character.isLetterOrDigit(points[start - 1]) || points[start - 1] == '_'
                || points[start - 1] == '.')) {
            start--;
        }
        return start;
    }

    private record Token(String text, int line, int column) {
    }
}
