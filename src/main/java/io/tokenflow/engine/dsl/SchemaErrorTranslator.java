package io.tokenflow.engine.dsl;

import com.networknt.schema.Error;
import tools.jackson.databind.JsonNode;

/** Turns a JSON Schema validation error into a diagnostic with a JSON pointer and an "Expected …" message. */
final class SchemaErrorTranslator {

    private final JsonNode document;

    SchemaErrorTranslator(JsonNode document) {
        this.document = document;
    }

    Diagnostic toDiagnostic(Error error) {
        String pointer = SchemaErrors.pointerOf(error.getInstanceLocation());
        String property = error.getProperty();
        String message = switch (error.getKeyword() == null ? "" : error.getKeyword()) {
            case "required" -> "Expected member '" + property + "' at " + describe(pointer) + ", but it is missing";
            case "additionalProperties" -> "Expected no member '" + property + "' at " + describe(pointer)
                    + " (it is not part of the workflow DSL), but found one";
            case "type" -> "Expected " + describe(pointer) + " to be " + article(error.getSchemaNode())
                    + ", but found " + kindAndValue(error.getInstanceNode());
            case "pattern" -> "Expected " + describe(pointer) + " to match " + error.getSchemaNode().asString()
                    + ", but found " + kindAndValue(error.getInstanceNode());
            case "enum", "const" -> "Expected " + describe(pointer) + " to be " + (error.getKeyword().equals("enum")
                    ? "one of " : "") + error.getSchemaNode() + ", but found " + kindAndValue(error.getInstanceNode());
            default -> "Expected " + describe(pointer) + " to be valid: " + stripLocation(error.getMessage())
                    + foundValue(error.getInstanceNode());
        };
        String at = "additionalProperties".equals(error.getKeyword()) ? pointer + "/" + SchemaErrors.escape(property)
                : SchemaErrors.pointerOf(error);
        return Diagnostic.error("schema", nodeIdAt(at), at, message);
    }

    /** The id of the node a pointer falls within, if it is inside {@code /nodes/<i>} and that node has an id. */
    String nodeIdAt(String pointer) {
        if (!pointer.startsWith("/nodes/")) {
            return null;
        }
        String[] parts = pointer.split("/");
        if (parts.length < 3 || !parts[2].chars().allMatch(Character::isDigit) || parts[2].isEmpty()) {
            return null;
        }
        JsonNode id = document.path("nodes").path(Integer.parseInt(parts[2])).path("id");
        return id.isString() ? id.asString() : null;
    }

    private static String article(JsonNode type) {
        String name = type.isArray() ? type.toString() : type.asString();
        return type.isArray() ? "one of " + name : (name.matches("^[aeiou].*") ? "an " : "a ") + name;
    }

    private static String kindAndValue(JsonNode instance) {
        if (instance == null) {
            return "nothing";
        }
        String kind = instance.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        return instance.isContainer() ? "an " + kind : kind + " " + abbreviate(instance.toString());
    }

    private static String abbreviate(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }

    private static String describe(String pointer) {
        return pointer.isEmpty() ? "the document root" : "\"" + pointer + "\"";
    }

    private static String foundValue(JsonNode instance) {
        if (instance == null || instance.isContainer()) {
            return "";
        }
        return ", but found " + abbreviate(instance.toString());
    }

    private static String stripLocation(String message) {
        int colon = message.indexOf(": ");
        return message.startsWith("$") && colon > 0 ? message.substring(colon + 2) : message;
    }
}
