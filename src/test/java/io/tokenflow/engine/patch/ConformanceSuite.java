package io.tokenflow.engine.patch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.tokenflow.ConformanceData;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Locates and reads the json-patch-tests suite (github.com/json-patch/json-patch-tests) from
 * {@code shared/conformance/json-patch}. Each case keeps the raw text of its "patch" member besides
 * the parsed record, because only the text shows a repeated member name such as two "op"s; Jackson's
 * tree keeps just the last one. The lenient reader here merges such repeats for everything else.
 */
final class ConformanceSuite {

    static final String DIRECTORY_PROPERTY = ConformanceData.DIRECTORY_PROPERTY;
    static final List<String> FILES = List.of("tests.json", "spec_tests.json");

    private static final JsonMapper LENIENT = JsonMapper.builder().build();

    private ConformanceSuite() {
    }

    /** One test record of the suite. */
    record Case(String file, int index, JsonNode record, String patchText) {

        String name() {
            JsonNode comment = record.path("comment");
            String label = comment.isString() ? comment.stringValue() : record.path("error").asString("");
            return file + " #" + index + (label.isEmpty() ? "" : ": " + label);
        }

        boolean disabled() {
            return record.path("disabled").asBoolean(false);
        }
    }

    /** The json-patch folder: property {@value #DIRECTORY_PROPERTY}, else shared/conformance above the working directory. */
    static Path directory() {
        Path folder = ConformanceData.folder("json-patch", FILES.get(0));
        for (String file : FILES) {
            if (!Files.isRegularFile(folder.resolve(file))) {
                throw new AssertionError("Expected " + folder.resolve(file) + ", but there is no such file");
            }
        }
        return folder;
    }

    static List<Case> load(Path directory, String file) throws IOException {
        String text = Files.readString(directory.resolve(file));
        JsonNode records = LENIENT.readTree(text);
        List<String> patchTexts = patchTexts(text);
        if (!records.isArray() || records.size() != patchTexts.size()) {
            throw new AssertionError("Expected " + file + " to be an array of test records, but it is not");
        }
        List<Case> cases = new ArrayList<>();
        for (int index = 0; index < records.size(); index++) {
            cases.add(new Case(file, index, records.get(index), patchTexts.get(index)));
        }
        return cases;
    }

    /** The raw text of each record's "patch" member (null unless it is an array or object), in record order. */
    private static List<String> patchTexts(String text) {
        List<String> texts = new ArrayList<>();
        try (JsonParser parser = LENIENT.createParser(text)) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                texts.add(patchText(parser, text));
            }
        }
        return texts;
    }

    private static String patchText(JsonParser parser, String text) {
        String patch = null;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            int start = (int) parser.currentTokenLocation().getCharOffset();
            parser.skipChildren();
            if (name.equals("patch") && value.isStructStart()) {
                patch = text.substring(start, (int) parser.currentLocation().getCharOffset());
            }
        }
        return patch;
    }
}
