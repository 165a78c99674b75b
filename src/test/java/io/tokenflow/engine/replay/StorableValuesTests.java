package io.tokenflow.engine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StorableValuesTests {

    @Test
    void findsWhatPostgresqlCannotStoreInAWorkersJsonTextAndWhere() {
        assertThat(StorableValues.problemInText("{\"name\": \"Ada\", \"n\": [1, 2.5]}")).isEmpty();
        assertThat(StorableValues.problemInText("{\"a\": [\"x\", \"b\\u0000c\"]}")).hasValueSatisfying(problem -> {
            assertThat(problem.pointer()).isEqualTo("/a/1");
            assertThat(problem.message()).contains("NUL");
        });
        assertThat(StorableValues.problemInText("{\"a\\ud800\": 1}")).hasValueSatisfying(problem ->
                assertThat(problem.message()).contains("lone surrogate"));
        assertThat(StorableValues.problemInText("{\"big\": 1e999}")).hasValueSatisfying(problem ->
                assertThat(problem.pointer()).isEqualTo("/big"));
    }

    @Test
    void anEscapedBackslashBeforeU0000AndAPairedSurrogateAreFine() {
        assertThat(StorableValues.problemInText("{\"path\": \"C:\\\\u0000\"}")).isEmpty();
        assertThat(StorableValues.problemInText("{\"emoji\": \"\\ud83d\\ude00\", \"small\": 1e-5}")).isEmpty();
    }

    @Test
    void storableTextKeepsNulCharactersAndLoneSurrogatesAsTheirEscapesAndTheRestAsItIs() {
        assertThat(StorableValues.storable("a\u0000b \ud800 😀 naïve")).isEqualTo("a\\u0000b \\ud800 😀 naïve");
        assertThat(StorableValues.storable("x\udc00")).isEqualTo("x\\udc00");
        assertThat(StorableValues.storable("plain")).isEqualTo("plain");
        assertThat(StorableValues.storable(null)).isNull();
    }
}
