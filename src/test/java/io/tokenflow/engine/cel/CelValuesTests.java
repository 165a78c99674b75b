package io.tokenflow.engine.cel;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cel.common.values.NullValue;

class CelValuesTests {

    @Test
    void turnsJsonIntegersIntoLongsAndOtherNumbersIntoDoubles() {
        Object value = CelValues.toCel(json("{\"i\":1,\"d\":1.5,\"s\":\"x\",\"b\":true,\"n\":null,\"l\":[2]}"));

        assertThat(value).isEqualTo(Map.of("i", 1L, "d", 1.5, "s", "x", "b", true, "n", NullValue.NULL_VALUE,
                "l", List.of(2L)));
    }

    @Test
    void roundTripsJson() {
        String text = "{\"a\":[1,2.5,\"x\",null,{\"b\":false}],\"big\":12345678901234}";

        assertThat(CelValues.toJson(CelValues.toCel(json(text)))).isEqualTo(json(text));
    }

    @Test
    void writesTimestampsAsTextAndNonFiniteNumbersAsNull() {
        assertThat(CelValues.toJson(Instant.parse("2024-01-02T03:04:05Z")).stringValue())
                .isEqualTo("2024-01-02T03:04:05Z");
        assertThat(CelValues.toJson(Double.NaN).isNull()).isTrue();
    }
}
