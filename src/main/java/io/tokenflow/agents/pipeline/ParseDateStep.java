package io.tokenflow.agents.pipeline;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import java.util.Locale;

import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code parse_date}: parses dates into ISO-8601: the data itself when it is a string, else {@code field} of the
 * object or of every row (written to {@code into}, default the field itself). With {@code format} (a
 * {@link DateTimeFormatter} pattern, e.g. {@code dd/MM/yyyy HH:mm}) that format; without, ISO forms, RFC 1123 and
 * epoch milliseconds. Date-times without an offset are in {@code timezone} (default UTC); the result is an instant
 * ({@code 2024-05-01T12:00:00Z}), or a date ({@code 2024-05-01}) when the text has no time.
 */
@Component
class ParseDateStep implements PipelineStep {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<DateTimeFormatter> KNOWN = List.of(DateTimeFormatter.ISO_OFFSET_DATE_TIME,
            DateTimeFormatter.ISO_ZONED_DATE_TIME, DateTimeFormatter.ISO_INSTANT, DateTimeFormatter.ISO_LOCAL_DATE_TIME,
            DateTimeFormatter.ISO_LOCAL_DATE, DateTimeFormatter.RFC_1123_DATE_TIME);

    @Override
    public String name() {
        return "parse_date";
    }

    @Override
    public String usage() {
        return "{\"step\":\"parse_date\",\"field\":\"departs\"?,\"format\":\"dd/MM/yyyy HH:mm\"?,\"timezone\":"
                + "\"Europe/Oslo\"?,\"into\":\"departs_at\"?} parses dates into ISO-8601";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        Parser parser = new Parser(formatter(Rows.text(step, "format", null)), zone(Rows.text(step, "timezone", "UTC")));
        if (data.isString() || data.isNumber()) {
            return parser.parse(data);
        }
        String field = Rows.text(step, "field");
        String into = Rows.text(step, "into", field);
        if (data.isObject() && !data.path("items").isArray()) {
            return parsed(data, field, into, parser);
        }
        ArrayNode rows = NODES.arrayNode();
        for (JsonNode row : Rows.of(data)) {
            rows.add(parsed(row, field, into, parser));
        }
        return rows;
    }

    private static ObjectNode parsed(JsonNode row, String field, String into, Parser parser) throws PipelineException {
        ObjectNode copy = row.isObject() ? (ObjectNode) row.deepCopy() : NODES.objectNode();
        JsonNode value = Rows.field(row, field);
        copy.set(into, value.isMissingNode() || value.isNull() ? NODES.nullNode() : parser.parse(value));
        return copy;
    }

    private static DateTimeFormatter formatter(String pattern) throws PipelineException {
        try {
            return pattern == null ? null : DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new PipelineException("Expected \"format\" to be a date pattern such as yyyy-MM-dd HH:mm, but: "
                    + e.getMessage());
        }
    }

    private static ZoneId zone(String name) throws PipelineException {
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new PipelineException("Expected \"timezone\" to be a zone such as UTC or Europe/Oslo, but found \""
                    + name + "\"");
        }
    }

    /** Parses one value with a format, or with the known forms in turn. */
    private record Parser(DateTimeFormatter format, ZoneId zone) {

        JsonNode parse(JsonNode value) throws PipelineException {
            if (value.isIntegralNumber() && format == null) {
                return NODES.stringNode(Instant.ofEpochMilli(value.longValue()).toString());
            }
            String text = value.isString() ? value.stringValue().strip() : value.toString();
            for (DateTimeFormatter candidate : format == null ? KNOWN : List.of(format)) {
                try {
                    return NODES.stringNode(iso(candidate.parse(text)));
                } catch (DateTimeException notThisOne) {
                    // the next form may fit
                }
            }
            throw new PipelineException("Expected a date" + (format == null ? " (ISO-8601, RFC 1123 or epoch ms)"
                    : " in the format the step gives") + ", but found \"" + text + "\"");
        }

        private String iso(TemporalAccessor parsed) {
            if (parsed.isSupported(java.time.temporal.ChronoField.OFFSET_SECONDS)) {
                return OffsetDateTime.from(parsed).toInstant().toString();
            }
            if (parsed.isSupported(java.time.temporal.ChronoField.INSTANT_SECONDS)) {
                return Instant.from(parsed).toString();
            }
            if (parsed.isSupported(java.time.temporal.ChronoField.HOUR_OF_DAY)) {
                return ZonedDateTime.of(LocalDateTime.from(parsed), zone).toInstant().toString();
            }
            return LocalDate.from(parsed).toString();
        }
    }
}
