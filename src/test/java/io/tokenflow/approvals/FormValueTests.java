package io.tokenflow.approvals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** An approval's fields read as their type says, and say so when the pointer found nothing. */
class FormValueTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void formatsEachTypeAndFallsBackToTheRawValueWhenItIsNotOfIt() {
        assertThat(FormValue.of("a", "A", "number", JSON.readTree("1234567.25")).text()).isEqualTo("1,234,567.25");
        assertThat(FormValue.of("a", "A", "number", JSON.readTree("\"n/a\"")).text()).isEqualTo("n/a");
        assertThat(FormValue.of("a", "A", "boolean", JSON.readTree("false")).text()).isEqualTo("No");
        assertThat(FormValue.of("a", "A", "datetime", JSON.readTree("\"2026-03-01T10:15:00+01:00\"")).text())
                .isEqualTo("2026-03-01 09:15 UTC");
        assertThat(FormValue.of("a", "A", "json", JSON.readTree("{\"x\":1}")).text()).contains("\"x\" : 1");
        assertThat(FormValue.of("a", "A", "text", JSON.readTree("{\"x\":1}")).text()).isEqualTo("{\"x\":1}");
    }

    @Test
    void linksOnlyHttpAndHttpsUrls() {
        assertThat(FormValue.of("q", "Q", "url", JSON.readTree("\"https://a.example/q\"")).href())
                .isEqualTo("https://a.example/q");
        FormValue script = FormValue.of("q", "Q", "url", JSON.readTree("\"javascript:alert(1)\""));
        assertThat(script.href()).isNull();
        assertThat(script.text()).isEqualTo("javascript:alert(1)");
    }

    @Test
    void aPointerThatFindsNothingIsNotSet() {
        JsonNode context = JSON.readTree("{\"input\": {\"a\": null}}");
        assertThat(FormValue.of("a", "A", "text", context.at("/input/a"))).extracting(FormValue::text,
                FormValue::missing).containsExactly("not set", true);
        assertThat(FormValue.of("b", "B", "text", context.at("/payload/b")).missing()).isTrue();
    }

    @Test
    void withoutAFormTheTypeIsReadOffTheValue() {
        assertThat(FormValue.inferred("n", JSON.readTree("2.5"))).extracting(FormValue::type, FormValue::text)
                .containsExactly("number", "2.5");
        assertThat(FormValue.inferred("o", JSON.readTree("[1]")).type()).isEqualTo("json");
        assertThat(FormValue.inferred("s", JSON.readTree("\"x\"")).type()).isEqualTo("text");
    }
}
