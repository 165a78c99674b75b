package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.List;

import io.tokenflow.engine.patch.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * One input of the editor's inspector, bound to a JSON pointer into the draft document. The browser turns what is
 * typed into a JSON value of {@link #dataType()} and sets it at {@link #path()} (an empty field removes the member).
 *
 * @param options the choices of a {@link Widget#SELECT} (an empty first choice when the field is optional)
 */
public record InspectorField(String path, String label, Widget widget, String value, List<String> options,
                             boolean required, String hint) {

    /** How a field is shown and which JSON type its text becomes. */
    public enum Widget {
        TEXT("string"), TEXTAREA("string"), INTEGER("integer"), NUMBER("number"), CHECKBOX("boolean"),
        SELECT("string"), JSON("json"), LIST("list");

        private final String dataType;

        Widget(String dataType) {
            this.dataType = dataType;
        }

        /** The widget for a JSON Schema {@code type}: strings, numbers and booleans as such, anything else JSON. */
        static Widget forSchemaType(String type) {
            switch (type) {
                case "string":
                    return TEXT;
                case "integer":
                    return INTEGER;
                case "number":
                    return NUMBER;
                case "boolean":
                    return CHECKBOX;
                default:
                    return JSON;
            }
        }
    }

    public InspectorField {
        options = List.copyOf(options);
        value = value == null ? "" : value;
    }

    /** A field showing the member of {@code owner} named by the last segment of {@code path}. */
    static InspectorField of(JsonNode owner, String path, String label, Widget widget, String hint) {
        return new InspectorField(path, label, widget, text(owner.path(lastToken(path)), widget), List.of(), false, hint);
    }

    static InspectorField select(JsonNode owner, String path, String label, List<String> choices, boolean required,
                                 String hint) {
        List<String> options = new ArrayList<>();
        if (!required) {
            options.add("");
        }
        options.addAll(choices);
        return new InspectorField(path, label, Widget.SELECT, text(owner.path(lastToken(path)), Widget.SELECT), options,
                required, hint);
    }

    /** A field for a member declared by a JSON Schema {@code property}: its enum as choices, else by its type. */
    static InspectorField fromSchema(JsonNode owner, String path, String label, JsonNode property, boolean required) {
        String hint = property.path("description").asString(null);
        if (property.path("enum").isArray()) {
            List<String> choices = new ArrayList<>();
            property.path("enum").forEach(choice -> choices.add(choice.asString()));
            return select(owner, path, label, choices, required, hint);
        }
        InspectorField field = of(owner, path, label, Widget.forSchemaType(property.path("type").asString("")), hint);
        return required ? field.markedRequired() : field;
    }

    private static String lastToken(String path) {
        List<String> tokens = JsonPointer.parse(path).tokens();
        return tokens.get(tokens.size() - 1);
    }

    InspectorField markedRequired() {
        return new InspectorField(path, label, widget, value, options, true, hint);
    }

    /** The value as the field shows it: lists comma-separated, JSON pretty-printed, booleans as "true". */
    static String text(JsonNode value, Widget widget) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return "";
        }
        if (widget == Widget.LIST && value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(item.isString() ? item.asString() : item.toString()));
            return String.join(", ", items);
        }
        if (widget == Widget.JSON) {
            return value.toPrettyString();
        }
        return value.isString() ? value.asString() : value.toString();
    }

    public String dataType() {
        return widget.dataType;
    }

    public boolean checked() {
        return "true".equals(value);
    }

    public boolean multiline() {
        return widget == Widget.TEXTAREA || widget == Widget.JSON;
    }

    /** A DOM id derived from the pointer: {@code /nodes/2/config/url} → {@code field-nodes-2-config-url}. */
    public String domId() {
        return "field" + path.replaceAll("[^A-Za-z0-9_]", "-");
    }
}
