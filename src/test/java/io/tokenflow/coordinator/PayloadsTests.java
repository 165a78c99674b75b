package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

class PayloadsTests {

    private final JsonMapper json = JsonMapper.builder().build();
    private final Payloads payloads = new Payloads(null, json);

    @Test
    void quotesEveryTextAsTheJsonStringThatReadsBackAsIt() {
        List<String> texts = List.of("", "n1", "xekTZh4-7818wlD67EeQEA", "vm-6239-function-3", "naïve café 日本 😀",
                "say \"hi\"", "back\\slash", "line\nbreak", "tab\tand\r", "\u0000nul and \u001f unit separator",
                "a/b </script>", "\u2028 line separator");
        for (String text : texts) {
            String quoted = payloads.quote(text);
            assertThat(quoted).as(text).isEqualTo(json.writeValueAsString(text));
            assertThat(json.readValue(quoted, String.class)).isEqualTo(text);
        }
        assertThat(payloads.quote(null)).isEqualTo("null");
    }
}
