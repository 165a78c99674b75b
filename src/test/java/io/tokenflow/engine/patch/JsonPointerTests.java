package io.tokenflow.engine.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonPointerTests {

    @Test
    void emptyStringIsTheRoot() {
        assertThat(JsonPointer.parse("")).isEqualTo(JsonPointer.root());
        assertThat(JsonPointer.root().isRoot()).isTrue();
        assertThat(JsonPointer.root().tokens()).isEmpty();
        assertThat(JsonPointer.root()).hasToString("");
    }

    @Test
    void slashAloneIsTheEmptyMemberName() {
        assertThat(JsonPointer.parse("/").tokens()).containsExactly("");
        assertThat(JsonPointer.parse("//").tokens()).containsExactly("", "");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/foo|foo",
        "/a~1b|a/b",
        "/m~0n|m~n",
        "/~01|~1",
        "/~10|/0",
        "/c%d|c%d",
        "'/ '|' '",
        "/0|0",
    })
    void unescapesTokens(String text, String token) {
        JsonPointer pointer = JsonPointer.parse(text);
        assertThat(pointer.tokens()).containsExactly(token);
        assertThat(pointer).hasToString(text);
    }

    @Test
    void escapesTildeBeforeSlashSoTheFormRoundTrips() {
        JsonPointer pointer = JsonPointer.root().append("a/b").append("~1").append("x~").append(3);
        assertThat(pointer).hasToString("/a~1b/~01/x~0/3");
        assertThat(JsonPointer.parse(pointer.toString())).isEqualTo(pointer);
    }

    @ParameterizedTest
    @ValueSource(strings = {"foo", "a/b", "~0", " /a"})
    void rejectsTextWithoutLeadingSlash(String text) {
        assertThatThrownBy(() -> JsonPointer.parse(text))
                .isInstanceOf(InvalidJsonPointerException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Expected a JSON Pointer (RFC 6901), but ")
                .hasMessageEndingWith("does not start with \"/\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a~", "/a~2", "/~x/b", "/a/~", "/~~"})
    void rejectsBadTildeEscapes(String text) {
        assertThatThrownBy(() -> JsonPointer.parse(text))
                .isInstanceOf(InvalidJsonPointerException.class)
                .hasMessageContaining("not followed by \"0\" or \"1\"");
    }

    @Test
    void navigatesParentAndLast() {
        JsonPointer pointer = JsonPointer.parse("/nodes/5/name");
        assertThat(pointer.last()).isEqualTo("name");
        assertThat(pointer.parent()).isEqualTo(JsonPointer.parse("/nodes/5"));
        assertThat(pointer.parent().parent().parent().isRoot()).isTrue();
    }

    @Test
    void rootHasNoParentOrLastToken() {
        assertThatThrownBy(() -> JsonPointer.root().parent()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> JsonPointer.root().last()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void prefixIncludesItselfAndDescendantsOnly() {
        JsonPointer a = JsonPointer.parse("/a");
        assertThat(JsonPointer.root().isPrefixOf(a)).isTrue();
        assertThat(a.isPrefixOf(a)).isTrue();
        assertThat(a.isPrefixOf(JsonPointer.parse("/a/b"))).isTrue();
        assertThat(a.isPrefixOf(JsonPointer.parse("/ab"))).isFalse();
        assertThat(a.isPrefixOf(JsonPointer.root())).isFalse();
        assertThat(JsonPointer.parse("/a/b").isPrefixOf(a)).isFalse();
    }

    @Test
    void copiesItsTokens() {
        List<String> tokens = new ArrayList<>(List.of("a"));
        JsonPointer pointer = new JsonPointer(tokens);
        tokens.add("b");
        assertThat(pointer.tokens()).containsExactly("a");
        assertThatThrownBy(() -> pointer.tokens().add("c")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new JsonPointer(java.util.Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void rejectsNegativeIndex() {
        assertThatThrownBy(() -> JsonPointer.root().append(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
