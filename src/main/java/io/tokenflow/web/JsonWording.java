package io.tokenflow.web;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Jackson's messages about a request body in the words of JSON rather than Java: a caller of the API sees "an array
 * of strings", not {@code java.util.ArrayList<java.lang.String>}, and a limit without the Java method that sets it.
 * (Jackson has no option for this; its messages name the target type, which is ours to hide.)
 */
public final class JsonWording {

    private static final Pattern JAVA_TYPE = Pattern.compile("`((?:[a-z_$][\\w$]*\\.)+[\\w$.]+(?:<[^`]*>)?|int|long"
            + "|double|boolean|float|short)`");
    private static final Pattern LIMIT_SOURCE = Pattern.compile(", from `[^`]*`| \\(token `[^`]*`\\)");
    /** Jackson's words for a value no constructor of the target takes (a number where an object belongs). */
    private static final Pattern NO_CREATOR = Pattern.compile("Cannot construct instance of (.+?) \\(.*?\\): no \\S+ "
            + "constructor/factory method to deserialize from (\\w+) value(.*)", Pattern.DOTALL);
    /** Jackson's words for the kind of JSON value it found ("from Integer value"). */
    private static final Pattern FOUND_KIND = Pattern.compile("from (Integer|Floating-point|Boolean|String|Array|Object"
            + "|Null) value");
    private static final Map<String, String> FOUND = Map.of("Integer", "a whole number", "Floating-point",
            "a number", "Boolean", "true or false", "String", "a string", "Array", "an array", "Object", "an object",
            "Null", "null");
    private static final Map<String, String> KINDS = Map.ofEntries(
            Map.entry("String", "a string"), Map.entry("Integer", "a whole number"), Map.entry("int", "a whole number"),
            Map.entry("Long", "a whole number"), Map.entry("long", "a whole number"), Map.entry("Short", "a whole number"),
            Map.entry("short", "a whole number"), Map.entry("BigInteger", "a whole number"),
            Map.entry("Double", "a number"), Map.entry("double", "a number"), Map.entry("Float", "a number"),
            Map.entry("float", "a number"), Map.entry("BigDecimal", "a number"), Map.entry("Boolean", "true or false"),
            Map.entry("boolean", "true or false"), Map.entry("UUID", "a UUID string"),
            Map.entry("Instant", "a date-time string"), Map.entry("OffsetDateTime", "a date-time string"),
            Map.entry("Duration", "a duration string"));

    private JsonWording() {
    }

    public static String withoutJavaNames(String message) {
        if (message == null) {
            return "";
        }
        String unsourced = LIMIT_SOURCE.matcher(message).replaceAll("");
        Matcher types = JAVA_TYPE.matcher(unsourced);
        StringBuilder worded = new StringBuilder();
        while (types.find()) {
            types.appendReplacement(worded, Matcher.quoteReplacement(kind(types.group(1))));
        }
        types.appendTail(worded);
        Matcher creator = NO_CREATOR.matcher(worded);
        if (creator.matches()) {
            return "Expected " + creator.group(1) + ", but found " + article(creator.group(2))
                    + creator.group(2).toLowerCase(java.util.Locale.ROOT) + creator.group(3);
        }
        Matcher found = FOUND_KIND.matcher(worded);
        StringBuilder kinds = new StringBuilder();
        while (found.find()) {
            found.appendReplacement(kinds, Matcher.quoteReplacement("from " + FOUND.get(found.group(1))));
        }
        found.appendTail(kinds);
        return kinds.toString();
    }

    private static String article(String kind) {
        return "AEIOU".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ";
    }

    private static String kind(String javaType) {
        int generic = javaType.indexOf('<');
        String raw = generic < 0 ? javaType : javaType.substring(0, generic);
        String simple = raw.substring(raw.lastIndexOf('.') + 1);
        if (simple.endsWith("List") || simple.endsWith("Set") || simple.endsWith("Collection") || simple.endsWith("[]")
                || simple.endsWith("ArrayNode")) {
            String element = generic < 0 ? null : kind(javaType.substring(generic + 1, javaType.lastIndexOf('>')));
            return element == null ? "an array" : "an array of " + plural(element);
        }
        if (simple.endsWith("Map") || simple.endsWith("ObjectNode") || simple.endsWith("JsonNode")) {
            return simple.endsWith("JsonNode") ? "a JSON value" : "an object";
        }
        // our own request types are JSON objects
        return raw.startsWith("io.tokenflow.") ? "an object" : KINDS.getOrDefault(simple, "a value of another kind");
    }

    private static String plural(String kind) {
        String bare = kind.replaceFirst("^an? ", "");
        return bare.equals("true or false") ? "true or false values" : bare + "s";
    }
}
