package io.tokenflow.approvals;

import java.math.BigDecimal;
import java.text.NumberFormat;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

import tools.jackson.databind.JsonNode;

/**
 * One field of an approval's detail as the approver reads it: its label and its value formatted by type.
 *
 * @param text    the value to show ("not set" when the pointer found nothing)
 * @param href    the link of a {@code url} field (http and https only), else null
 * @param missing whether the pointer found nothing
 */
public record FormValue(String name, String label, String type, String text, String href, boolean missing) {

    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'");

    /** The field {@code name} of {@code type} showing {@code value} (null or missing: not set). */
    static FormValue of(String name, String label, String type, JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return new FormValue(name, label, type, "not set", null, true);
        }
        String raw = value.isString() ? value.asString() : value.toString();
        String text = switch (type) {
            case "number" -> value.isNumber() ? number(value.decimalValue()) : raw;
            case "boolean" -> value.isBoolean() ? (value.asBoolean() ? "Yes" : "No") : raw;
            case "datetime" -> datetime(raw);
            case "json" -> value.toPrettyString();
            default -> raw;
        };
        boolean link = "url".equals(type) && (raw.startsWith("https://") || raw.startsWith("http://"));
        return new FormValue(name, label, type, text, link ? raw : null, false);
    }

    /** A top-level payload member shown without a form: its type read off the value. */
    static FormValue inferred(String name, JsonNode value) {
        String type = value.isNumber() ? "number" : value.isBoolean() ? "boolean" : value.isContainer() ? "json" : "text";
        return of(name, name, type, value);
    }

    private static String number(BigDecimal value) {
        NumberFormat format = NumberFormat.getNumberInstance(Locale.ENGLISH);
        format.setMaximumFractionDigits(6);
        return format.format(value);
    }

    private static String datetime(String raw) {
        try {
            return OffsetDateTime.parse(raw).withOffsetSameInstant(ZoneOffset.UTC).format(DATETIME);
        } catch (DateTimeParseException e) {
            return raw;
        }
    }
}
