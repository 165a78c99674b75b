package io.tokenflow.signing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;

/**
 * The Node and Python signing snippets of docs/worker-protocol.md §6, run as written there with {@code node} and
 * {@code python3} (both needed: .ci/run installs them), sign a signal as the server checks it; and the canonical
 * form's worked example there is the server's.
 */
class SignalSnippetsTests {

    private static final Path PROTOCOL = Path.of("docs/worker-protocol.md");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String KEY_ID = "wk_0123456789abcdef";
    private static final String SECRET = "s3cr3t-é-🔑";
    private static final long NOW = 1_790_000_000_123L;

    @TempDir Path dir;

    @Test
    void theNodeSnippetSignsAsTheServerChecks() throws Exception {
        Files.writeString(dir.resolve("sign.mjs"), snippet("sign.mjs"));
        Files.writeString(dir.resolve("main.mjs"), """
                import { sign } from './sign.mjs';
                const fields = JSON.parse(process.argv[2]);
                console.log(JSON.stringify(sign(fields, '%s', '%s', %d)));
                """.formatted(KEY_ID, SECRET, NOW));
        assertSignedAsTheServerChecks(run(List.of("node", "main.mjs", JSON.writeValueAsString(signal()))));
    }

    @Test
    void thePythonSnippetSignsAsTheServerChecks() throws Exception {
        Files.writeString(dir.resolve("sign.py"), snippet("sign.py"));
        Files.writeString(dir.resolve("main.py"), """
                import json, sys
                from sign import sign
                print(json.dumps(sign(json.loads(sys.argv[1]), '%s', '%s', %d)))
                """.formatted(KEY_ID, SECRET, NOW));
        assertSignedAsTheServerChecks(run(List.of("python3", "main.py", JSON.writeValueAsString(signal()))));
    }

    @Test
    void theWorkedExampleIsTheCanonicalForm() throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("run", "r1");
        fields.put("key", "wk_1");
        fields.put("signed_at", "5");
        String example = "3:key4:wk_13:run2:r19:signed_at1:5";
        assertThat(Files.readString(PROTOCOL)).contains("`" + example + "`");
        assertThat(new String(SignalSignature.canonical(fields), StandardCharsets.UTF_8)).isEqualTo(example);
    }

    private void assertSignedAsTheServerChecks(String output) {
        @SuppressWarnings("unchecked")
        Map<String, String> signed = JSON.readValue(output, Map.class);
        Map<String, String> expected = new LinkedHashMap<>(signal());
        expected.put(SignalSignature.KEY, KEY_ID);
        expected.put(SignalSignature.SIGNED_AT, Long.toString(NOW));
        assertThat(signed).containsAllEntriesOf(expected).containsOnlyKeys(append(expected.keySet(), "sig"));
        assertThat(signed.get("sig")).isEqualTo(SignalSignature.sign(SECRET, expected));
        assertThat(SignalSignature.matches(SECRET, signed, signed.get("sig"))).isTrue();
    }

    private static List<String> append(java.util.Set<String> names, String name) {
        List<String> all = new java.util.ArrayList<>(names);
        all.add(name);
        return all;
    }

    /** A completion with non-ASCII text (two- to four-byte UTF-8) and a newline in its output. */
    private static Map<String, String> signal() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("token", "tok_9aZ-");
        fields.put("run", "0190f5b6-7d3e-8000-8000-000000000001");
        fields.put("node", "geocode");
        fields.put("status", "completed");
        fields.put("output", "{\"city\": \"Zürich\",\n \"note\": \"東京 🚀\"}");
        fields.put("worker", "snippet-worker");
        return fields;
    }

    private static String snippet(String name) throws IOException {
        Matcher block = Pattern.compile("<!-- snippet: " + Pattern.quote(name) + " -->\\n```\\w+\\n(.*?)```",
                Pattern.DOTALL).matcher(Files.readString(PROTOCOL));
        assertThat(block.find()).as("a code block marked 'snippet: " + name + "' in " + PROTOCOL).isTrue();
        return block.group(1);
    }

    private String run(List<String> command) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("Expected '" + command.get(0) + "' on the PATH to run the snippet (install "
                    + "Node 18+ and Python 3; .ci/run does), but it could not be started", e);
        }
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(command + " finished").isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(process.exitValue()).as(command + " exited with: " + output).isZero();
        return output;
    }
}
