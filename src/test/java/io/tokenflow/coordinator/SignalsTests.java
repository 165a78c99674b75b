package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

class SignalsTests {

    /** The protocol's rules as regular expressions: the oracle the hand-written checks are held to. */
    private static final Pattern TOKEN = Pattern.compile(Signals.TOKEN);
    private static final Pattern NODE = Pattern.compile(Signals.NODE);
    private static final Pattern EPOCH_MILLIS = Pattern.compile("\\d{1,15}");
    /** Characters the rules treat differently: every class, its edges, and look-alikes outside ASCII. */
    private static final String ALPHABET = "azAZmM09_-./:@[`{ #\t\u00e9\u0660\uff10\u212a";
    /** Id characters only (and digits, which a node id may not start with): long texts that may pass. */
    private static final String ID_CHARACTERS = "azAZ09_-";

    private final Signals signals = new Signals(JsonMapper.builder().build());

    @Test
    void idChecksAgreeWithTheProtocolsRegularExpressions() {
        Random random = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            String text = randomText(random);
            assertThat(Signals.isToken(text)).as("token '%s'", text).isEqualTo(TOKEN.matcher(text).matches());
            assertThat(Signals.isNode(text)).as("node '%s'", text).isEqualTo(NODE.matcher(text).matches());
            assertThat(Signals.isEpochMillis(text)).as("epoch millis '%s'", text)
                    .isEqualTo(EPOCH_MILLIS.matcher(text).matches());
        }
    }

    @Test
    void idChecksAtTheirEdges() {
        assertThat(Signals.isToken("")).isFalse();
        assertThat(Signals.isToken("-")).isTrue();
        assertThat(Signals.isToken("9".repeat(64))).isTrue();
        assertThat(Signals.isToken("9".repeat(65))).isFalse();
        assertThat(Signals.isNode("_")).isTrue();
        assertThat(Signals.isNode("9a")).isFalse();
        assertThat(Signals.isNode("-a")).isFalse();
        assertThat(Signals.isNode("a" + "-".repeat(63))).isTrue();
        assertThat(Signals.isNode("a" + "-".repeat(64))).isFalse();
        assertThat(Signals.isEpochMillis("0")).isTrue();
        assertThat(Signals.isEpochMillis("1".repeat(15))).isTrue();
        assertThat(Signals.isEpochMillis("1".repeat(16))).isFalse();
        assertThat(Signals.isEpochMillis("\u0661")).as("an Arabic-Indic digit").isFalse();
    }

    @Test
    void aCompletionWithABadIdIsMalformedAndSaysWhichRuleItBroke() {
        Map<String, String> fields = completion();
        fields.put("token", "tok en");
        assertThat(signals.parse("1-0", fields)).isInstanceOfSatisfying(Signal.Malformed.class, malformed ->
                assertThat(malformed.reason()).isEqualTo("Expected token to match [A-Za-z0-9_-]{1,64}, but found "
                        + "'tok en'"));

        fields = completion();
        fields.put("node", "1st");
        assertThat(signals.parse("1-0", fields)).isInstanceOfSatisfying(Signal.Malformed.class, malformed ->
                assertThat(malformed.reason()).isEqualTo("Expected node to match "
                        + "[A-Za-z_][A-Za-z0-9_-]{0,63}(~compensate)?, but found '1st'"));
        assertThat(Signals.isNode("charge~compensate")).isTrue();
        assertThat(Signals.isNode("charge~compensate~compensate")).isFalse();
        assertThat(Signals.isNode("~compensate")).isFalse();
        assertThat(Signals.isNode("charge~refund")).isFalse();
    }

    @Test
    void aWellFormedCompletionKeepsItsFields() {
        Map<String, String> fields = completion();
        fields.put("started_at", "1795697460753");
        assertThat(signals.parse("1-0", fields)).isInstanceOfSatisfying(Signal.Completion.class, completion -> {
            assertThat(completion.token()).isEqualTo("Ydf7tuLjeScOnL-e3o_8Mg");
            assertThat(completion.node()).isEqualTo("fetch_2");
            assertThat(completion.startedAt()).isEqualTo(1795697460753L);
        });
        fields.put("started_at", "1795697460753.5");
        assertThat(signals.parse("1-0", fields)).isInstanceOfSatisfying(Signal.Completion.class, completion ->
                assertThat(completion.startedAt()).as("not epoch millis: left out").isNull());
    }

    private static Map<String, String> completion() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("token", "Ydf7tuLjeScOnL-e3o_8Mg");
        fields.put("run", "0ec9ef4d-d085-447a-9764-7472a4897bc3");
        fields.put("node", "fetch_2");
        fields.put("status", "completed");
        fields.put("output", "{\"ok\":true}");
        return fields;
    }

    private static String randomText(Random random) {
        int length = random.nextInt(10) == 0 ? 60 + random.nextInt(10) : random.nextInt(6);
        String alphabet = random.nextBoolean() ? ALPHABET : ID_CHARACTERS;
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
