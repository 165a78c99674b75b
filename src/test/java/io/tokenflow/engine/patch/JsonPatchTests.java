package io.tokenflow.engine.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class JsonPatchTests {

    private static final JsonMapper MAPPER = JsonMapper.builder().enable(JsonReadFeature.ALLOW_SINGLE_QUOTES).build();

    static JsonNode json(String text) {
        return MAPPER.readTree(text);
    }

    static JsonPatch patch(String text) {
        return JsonPatch.parse(json(text));
    }

    // Error reports: operation index, pointer into the patch, "Expected X, but Y"

    @Test
    void applicationErrorNamesOperationPointerAndWhatWasFound() {
        JsonPatch patch = patch("[{'op':'test','path':'/version','value':2},{'op':'add','path':'/x','value':1},"
                + "{'op':'remove','path':'/nodes/5'}]");
        PatchApplicationException e = catchThrowableOfType(PatchApplicationException.class,
                () -> patch.apply(json("{'version':2,'nodes':[1,2,3]}")));
        assertThat(e).hasMessage("Expected operation 2 (remove) to find a value at \"/nodes/5\", "
                + "but \"/nodes\" has only 3 elements");
        assertThat(e.operationIndex()).isEqualTo(2);
        assertThat(e.pointer()).isEqualTo("/2/path");
    }

    @Test
    void missingOpIsAnInvalidPatch() {
        InvalidPatchException e = catchThrowableOfType(InvalidPatchException.class,
                () -> patch("[{'path':'/a'}]"));
        assertThat(e).hasMessage("Expected operation 0 to have a string member \"op\", but it is missing");
        assertThat(e.operationIndex()).isZero();
        assertThat(e.pointer()).isEqualTo("/0/op");
    }

    @Test
    void failedTestSaysWhatWasExpectedAndFound() {
        JsonPatch patch = patch("[{'op':'add','path':'/a','value':1},{'op':'test','path':'/version','value':3}]");
        PatchTestFailedException e = catchThrowableOfType(PatchTestFailedException.class,
                () -> patch.apply(json("{'version':2}")));
        assertThat(e).hasMessage("Expected value at \"/version\" to equal 3 (test operation 1), but it is 2");
        assertThat(e.operationIndex()).isEqualTo(1);
        assertThat(e.pointer()).isEqualTo("/1/value");
    }

    static Stream<Arguments> malformedPatches() {
        return Stream.of(
                Arguments.of("{'op':'add'}", -1, "", "Expected a JSON Patch to be an array of operations, but it is an object"),
                Arguments.of("[{'op':'remove','path':'/a'}, 'x']", 1, "/1", "Expected operation 1 to be an object, but it is a string (\"x\")"),
                Arguments.of("[{'op':5,'path':'/a'}]", 0, "/0/op", "Expected operation 0 to have a string member \"op\", but it is a number (5)"),
                Arguments.of("[{'op':'spam','path':'/a'}]", 0, "/0/op", "Expected operation 0 to have an \"op\" of \"add\", \"remove\", \"replace\", \"move\", \"copy\" or \"test\", but it is \"spam\""),
                Arguments.of("[{'op':'add','path':'/a'}]", 0, "/0/value", "Expected operation 0 (add) to have a member \"value\", but it is missing"),
                Arguments.of("[{'op':'move','path':'/a'}]", 0, "/0/from", "Expected operation 0 (move) to have a string member \"from\", but it is missing"),
                Arguments.of("[{'op':'copy','from':'a','path':'/b'}]", 0, "/0/from", "Expected operation 0 (copy) to have a JSON Pointer in \"from\", but \"a\" does not start with \"/\""),
                Arguments.of("[{'op':'remove','path':'/a~2'}]", 0, "/0/path", "Expected operation 0 (remove) to have a JSON Pointer in \"path\", but \"/a~2\" has \"~\" at offset 2 not followed by \"0\" or \"1\""),
                Arguments.of("[{'op':'remove','path':null}]", 0, "/0/path", "Expected operation 0 (remove) to have a string member \"path\", but it is null"));
    }

    @ParameterizedTest
    @MethodSource("malformedPatches")
    void malformedPatchesAreRejectedWithPointerIntoThePatch(String text, int index, String pointer, String message) {
        InvalidPatchException e = catchThrowableOfType(InvalidPatchException.class, () -> patch(text));
        assertThat(e).hasMessage(message);
        assertThat(e.operationIndex()).isEqualTo(index);
        assertThat(e.pointer()).isEqualTo(pointer);
    }

    static Stream<Arguments> inapplicablePatches() {
        return Stream.of(
                Arguments.of("{'op':'add','path':'/a/5','value':0}", "/0/path", "Expected operation 0 (add) to add a value at \"/a/5\", but \"/a\" has only 2 elements, so the highest index to insert at is 2"),
                Arguments.of("{'op':'replace','path':'/a/01','value':0}", "/0/path", "Expected operation 0 (replace) to find a value at \"/a/01\", but \"/a\" is an array and \"01\" is not an array index (\"0\" or digits without a leading zero)"),
                Arguments.of("{'op':'remove','path':'/a/-'}", "/0/path", "Expected operation 0 (remove) to find a value at \"/a/-\", but \"-\" refers to the nonexistent element after the last of \"/a\""),
                Arguments.of("{'op':'add','path':'/s/x','value':0}", "/0/path", "Expected operation 0 (add) to add a value at \"/s/x\", but \"/s\" is a string (\"text\"), not an object or array"),
                Arguments.of("{'op':'move','from':'/o','path':'/o/inner'}", "/0/path", "Expected operation 0 (move) to move \"/o\" to a location outside itself, but \"/o/inner\" lies inside it"),
                Arguments.of("{'op':'move','from':'/missing','path':'/b'}", "/0/from", "Expected operation 0 (move) to find a value at \"/missing\", but the document root has no member \"missing\""),
                Arguments.of("{'op':'remove','path':''}", "/0/path", "Expected operation 0 (remove) to remove a value inside the document, but the root \"\" cannot be removed"));
    }

    @ParameterizedTest
    @MethodSource("inapplicablePatches")
    void inapplicablePatchesNameTheMemberAtFault(String operation, String pointer, String message) {
        JsonPatch patch = patch("[" + operation + "]");
        PatchApplicationException e = catchThrowableOfType(PatchApplicationException.class,
                () -> patch.apply(json("{'a':[1,2],'s':'text','o':{'inner':{}}}")));
        assertThat(e).hasMessage(message);
        assertThat(e.pointer()).isEqualTo(pointer);
    }

    @Test
    void testOnMissingPathIsATestFailureAtThePath() {
        PatchTestFailedException e = catchThrowableOfType(PatchTestFailedException.class,
                () -> patch("[{'op':'test','path':'/lock','value':null}]").apply(json("{}")));
        assertThat(e).hasMessage("Expected value at \"/lock\" to equal null (test operation 0), "
                + "but the document root has no member \"lock\"");
        assertThat(e.pointer()).isEqualTo("/0/path");
    }

    @Test
    void repeatedMemberInPatchTextIsRejected() {
        InvalidPatchException e = catchThrowableOfType(InvalidPatchException.class, () -> JsonPatch.parse(
                "[{\"op\":\"remove\",\"path\":\"/a\"},{\"op\":\"add\",\"path\":\"/baz\",\"value\":1,\"op\":\"remove\"}]"));
        assertThat(e).hasMessage("Expected every object in the patch to name each member once, but \"/1/op\" is repeated");
        assertThat(e.operationIndex()).isEqualTo(1);
        assertThat(e.pointer()).isEqualTo("/1/op");
    }

    @Test
    void patchTextMustBeJson() {
        assertThatThrownBy(() -> JsonPatch.parse("[{\"op\":")).isInstanceOf(InvalidPatchException.class)
                .hasMessageStartingWith("Expected a JSON Patch document in valid JSON, but ");
        assertThatThrownBy(() -> JsonPatch.parse(" ")).isInstanceOf(InvalidPatchException.class)
                .hasMessage("Expected a JSON Patch document, but the text is empty");
    }

    // Isolation: inputs never mutated, application atomic

    @Test
    void applyNeverMutatesTheTargetAndReturnsANewTree() {
        JsonNode target = json("{'a':{'b':[1,2,3]},'c':'x'}");
        JsonNode pristine = target.deepCopy();
        JsonNode result = patch("[{'op':'remove','path':'/a/b/0'},{'op':'move','from':'/c','path':'/a/c'},"
                + "{'op':'copy','from':'/a','path':'/d'},{'op':'replace','path':'/a/b/0','value':9}]").apply(target);
        assertThat(target).isEqualTo(pristine);
        assertThat(result).isEqualTo(json("{'a':{'b':[9,3],'c':'x'},'d':{'b':[2,3],'c':'x'}}"));
        assertThat(patch("[]").apply(target)).isEqualTo(target).isNotSameAs(target);
    }

    @Test
    void failureInALaterOperationLeavesTheOriginalUntouched() {
        JsonNode target = json("{'items':[1,2],'meta':{'n':2}}");
        JsonNode pristine = target.deepCopy();
        JsonPatch patch = patch("[{'op':'add','path':'/items/-','value':3},{'op':'remove','path':'/meta/n'},"
                + "{'op':'replace','path':'/items/0','value':0},{'op':'remove','path':'/missing'}]");
        PatchApplicationException e = catchThrowableOfType(PatchApplicationException.class, () -> patch.apply(target));
        assertThat(e.operationIndex()).isEqualTo(3);
        assertThat(target).isEqualTo(pristine);
    }

    @Test
    void resultsDoNotShareNodesWithThePatch() {
        JsonPatch patch = patch("[{'op':'add','path':'/v','value':{'list':[1]}}]");
        ObjectNode first = (ObjectNode) patch.apply(json("{}"));
        ((ArrayNode) first.get("v").get("list")).add(2);
        assertThat(patch.apply(json("{}"))).isEqualTo(json("{'v':{'list':[1]}}"));
    }

    @Test
    void operationsCopyTheirValuesIn() {
        ObjectNode value = JsonNodeFactory.instance.objectNode().put("a", 1);
        PatchOperation.Add add = new PatchOperation.Add(JsonPointer.parse("/x"), value);
        value.put("a", 2);
        add.value();
        ((ObjectNode) add.value()).put("a", 3);
        assertThat(add.value()).isEqualTo(json("{'a':1}"));
    }

    // RFC 6902 semantics

    @Test
    void addAppendsWithDashReplacesMembersAndReplacesTheRoot() {
        assertThat(patch("[{'op':'add','path':'/-','value':3}]").apply(json("[1,2]"))).isEqualTo(json("[1,2,3]"));
        assertThat(patch("[{'op':'add','path':'/1','value':9}]").apply(json("[1,2]"))).isEqualTo(json("[1,9,2]"));
        assertThat(patch("[{'op':'add','path':'/a','value':2}]").apply(json("{'a':1}"))).isEqualTo(json("{'a':2}"));
        assertThat(patch("[{'op':'add','path':'','value':[1]}]").apply(json("{'a':1}"))).isEqualTo(json("[1]"));
    }

    @Test
    void objectMemberNamedLikeAnIndexIsAPlainName() {
        assertThat(patch("[{'op':'add','path':'/01','value':1},{'op':'add','path':'/-','value':2}]").apply(json("{}")))
                .isEqualTo(json("{'01':1,'-':2}"));
    }

    @Test
    void copyIsDeepAndMoveToItselfIsANoOp() {
        JsonNode result = patch("[{'op':'copy','from':'/a','path':'/b'},{'op':'replace','path':'/b/x','value':2},"
                + "{'op':'move','from':'/a','path':'/a'}]").apply(json("{'a':{'x':1}}"));
        assertThat(result).isEqualTo(json("{'a':{'x':1},'b':{'x':2}}"));
    }

    @Test
    void moveWithinAnArrayRemovesBeforeAdding() {
        assertThat(patch("[{'op':'move','from':'/0','path':'/2'}]").apply(json("['a','b','c']")))
                .isEqualTo(json("['b','c','a']"));
    }

    @Test
    void testComparesNumbersByValueAndIgnoresMemberOrder() {
        JsonPatch patch = patch("[{'op':'test','path':'','value':{'b':[1.0,2e0],'a':{'y':null,'x':true}}}]");
        JsonNode document = json("{'a':{'x':true,'y':null},'b':[1,2]}");
        assertThat(patch.apply(document)).isEqualTo(document);
        assertThatThrownBy(() -> patch("[{'op':'test','path':'/b','value':[2,1]}]").apply(document))
                .isInstanceOf(PatchTestFailedException.class);
    }

    @Test
    void unknownMembersAreIgnoredAndToJsonRoundTrips() {
        JsonPatch patch = patch("[{'op':'remove','path':'/a','value':1,'extra':true},"
                + "{'op':'move','from':'/b','path':'/c~1d'}]");
        assertThat(patch.toJson()).isEqualTo(json("[{'op':'remove','path':'/a'},{'op':'move','path':'/c~1d','from':'/b'}]"));
        assertThat(JsonPatch.parse(patch.toJson())).isEqualTo(patch);
        assertThat(patch.size()).isEqualTo(2);
        assertThat(patch.operations()).extracting(PatchOperation::op).containsExactly("remove", "move");
    }

    // Resource limits

    @Test
    void parseRefusesMoreThanTheOperationLimit() {
        assertThat(JsonPatch.parse(testOperations(JsonPatch.MAX_OPERATIONS)).size()).isEqualTo(JsonPatch.MAX_OPERATIONS);
        InvalidPatchException e = catchThrowableOfType(InvalidPatchException.class,
                () -> JsonPatch.parse(testOperations(JsonPatch.MAX_OPERATIONS + 1)));
        assertThat(e).hasMessage("Expected a JSON Patch to have at most 10000 operations, but it has 10001");
        assertThat(e.pointer()).isEqualTo("/10000");
    }

    @Test
    void repeatedSelfCopiesCannotExhaustMemory() {
        ArrayNode doubling = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < 64; i++) {
            doubling.add(new PatchOperation.Copy(JsonPointer.root(), JsonPointer.parse("/c" + i)).toJson());
        }
        PatchApplicationException e = catchThrowableOfType(PatchApplicationException.class,
                () -> JsonPatch.parse(doubling).apply(json("{'seed':[1,2,3,4,5,6,7,8]}")));
        assertThat(e.getMessage()).startsWith("Expected operation ").contains("(copy) to keep the nodes added by the patch within 1000000");
        assertThat(e.operationIndex()).isLessThan(20);
    }

    private static ArrayNode testOperations(int count) {
        ArrayNode operations = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < count; i++) {
            operations.add(new PatchOperation.Test(JsonPointer.root(), JsonNodeFactory.instance.numberNode(1)).toJson());
        }
        return operations;
    }

    // Diff

    static Stream<Arguments> documentPairs() {
        return Stream.of(
                Arguments.of("{'a':{'b':{'c':1,'d':[1,2,3]}},'e':'x'}", "{'a':{'b':{'c':2,'d':[1,2,3]}},'e':'x'}"),
                Arguments.of("{'nodes':[{'id':1},{'id':2},{'id':3}]}", "{'nodes':[{'id':1},{'id':3}],'added':true}"),
                Arguments.of("{'nodes':[{'id':1},{'id':3}]}", "{'nodes':[{'id':0},{'id':1},{'id':2},{'id':3},{'id':4}]}"),
                Arguments.of("[[1,2],[3,[4,5]]]", "[[1],[3,[4,6,7]],{'x':null}]"),
                Arguments.of("{'a':1,'b':[1,2]}", "[1,2,{'a':1}]"),
                Arguments.of("{'n':1,'s':'~/'}", "{'n':1.0,'s':'~/','a/b':{'~':[]}}"),
                Arguments.of("[1,1,1,2]", "[1,2,2,1]"),
                Arguments.of("'scalar'", "{'now':'object'}"));
    }

    @ParameterizedTest
    @MethodSource("documentPairs")
    void diffTurnsSourceIntoTargetExactly(String source, String target) {
        JsonNode from = json(source);
        JsonPatch diff = JsonPatch.diff(from, json(target));
        assertThat(diff.apply(from)).isEqualTo(json(target));
        assertThat(JsonPatch.parse(diff.toJson()).apply(from)).isEqualTo(json(target));
        assertThat(from).isEqualTo(json(source));
    }

    @Test
    void oneDeepChangeIsOneReplace() {
        JsonPatch diff = JsonPatch.diff(json("{'a':{'b':{'c':1,'d':[1,2]}},'e':[{'f':1}]}"),
                json("{'a':{'b':{'c':1,'d':[1,2]}},'e':[{'f':2}]}"));
        assertThat(diff.toJson()).isEqualTo(json("[{'op':'replace','path':'/e/0/f','value':2}]"));
    }

    @Test
    void arrayInsertionAndRemovalAreSingleOperations() {
        assertThat(JsonPatch.diff(json("[1,2,3]"), json("[1,9,2,3]")).toJson())
                .isEqualTo(json("[{'op':'add','path':'/1','value':9}]"));
        assertThat(JsonPatch.diff(json("{'l':[1,2,3]}"), json("{'l':[1,3]}")).toJson())
                .isEqualTo(json("[{'op':'remove','path':'/l/1'}]"));
    }

    @Test
    void equalDocumentsGiveAnEmptyPatch() {
        assertThat(JsonPatch.diff(json("{'a':[1,{'b':2}]}"), json("{'a':[1,{'b':2}]}")).size()).isZero();
    }

    @Test
    void hugeDiffsFallBackToOneRootReplace() {
        ArrayNode source = JsonNodeFactory.instance.arrayNode();
        ArrayNode target = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < JsonPatch.MAX_OPERATIONS + 1; i++) {
            source.add(i);
            target.add(-i - 1);
        }
        JsonPatch diff = JsonPatch.diff(source, target);
        assertThat(diff.operations()).containsExactly(new PatchOperation.Replace(JsonPointer.root(), target));
        assertThat(diff.apply(source)).isEqualTo(target);
    }

    @Test
    void patchesAreValueObjects() {
        String text = "[{'op':'add','path':'/a','value':[1]}]";
        assertThat(patch(text)).isEqualTo(patch(text)).hasSameHashCodeAs(patch(text));
        assertThat(patch(text).operations()).isEqualTo(List.of(new PatchOperation.Add(JsonPointer.parse("/a"), json("[1]"))));
        assertThat(patch(text)).hasToString("[{\"op\":\"add\",\"path\":\"/a\",\"value\":[1]}]");
    }
}
