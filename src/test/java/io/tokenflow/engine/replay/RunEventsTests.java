package io.tokenflow.engine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

class RunEventsTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void readsTheContractsExampleEvent() {
        RunEvent event = RunEvents.parse(JSON.readTree("""
                {"seq": 7, "type": "node.completed", "at": 1763780000123, "node": "B", "token": "Q2xk",
                 "data": {"iteration": 2, "output": {"$ref": "cas://sha256:ab"}, "worker": "w", "started_at": 1763780000100}}
                """)).get(0);

        assertThat(event).isInstanceOf(NodeCompleted.class);
        NodeCompleted completed = (NodeCompleted) event;
        assertThat(completed.seq()).isEqualTo(7);
        assertThat(completed.type().wireName()).isEqualTo("node.completed");
        assertThat(completed.at()).isEqualTo(Instant.ofEpochMilli(1763780000123L));
        assertThat(completed.node()).isEqualTo("B");
        assertThat(completed.token()).isEqualTo("Q2xk");
        assertThat(completed.iteration()).isEqualTo(2);
        assertThat(completed.outputReference()).isEqualTo("cas://sha256:ab");
        assertThat(completed.startedAt()).isEqualTo(Instant.ofEpochMilli(1763780000100L));
    }

    @Test
    void readsEveryTypeOfAScript() {
        List<RunEvent> events = EventScript.events().runStarted(UUID.randomUUID(), "{}", "A")
                .emitted(null, "A", "t", null).started("A", "t", "w").parked("A", "J", "p", "t")
                .arrived("J", "p", "A", 1, 1).joinCompleted("J", "j", "p").completed("A", "t", "1")
                .failed("J", "j", "x").runCompleted().runFailed(null, "r", 0).runCancelled("bob", 0).parsed();

        assertThat(events).extracting(RunEvent::type).containsExactly(RunEventType.RUN_STARTED,
                RunEventType.TOKEN_EMITTED, RunEventType.NODE_STARTED, RunEventType.TOKEN_EMITTED,
                RunEventType.JOIN_ARRIVED, RunEventType.JOIN_COMPLETED, RunEventType.NODE_COMPLETED,
                RunEventType.NODE_FAILED, RunEventType.RUN_COMPLETED, RunEventType.RUN_FAILED,
                RunEventType.RUN_CANCELLED);
        assertThat(((TokenEmitted) events.get(3)).join()).isTrue();
        assertThat(((RunStarted) events.get(0)).entryNodes()).containsExactly("A");
    }

    @Test
    void refusesAnUnknownTypeNamingTheKnownOnes() {
        assertThatThrownBy(() -> RunEvents.parse(JSON.readTree("""
                [{"seq": 1, "type": "node.teleported", "at": 1, "node": "A", "token": "t", "data": {}}]""")))
                .isInstanceOf(MalformedRunEventException.class)
                .hasMessageContaining("Expected a run event type in [run.started, token.emitted")
                .hasMessageContaining("but found 'node.teleported'");
    }

    @Test
    void refusesMissingAndMistypedFields() {
        assertThatThrownBy(() -> RunEvents.parse(JSON.readTree("""
                [{"type": "run.completed", "at": 1, "data": {}}]""")))
                .hasMessage("Expected field 'seq' in run event [0] (run.completed), but it is missing");
        assertThatThrownBy(() -> RunEvents.parse(JSON.readTree("""
                {"seq": 3, "type": "token.emitted", "at": 1, "node": "A", "token": "t", "data": {"join": "yes"}}""")))
                .hasMessageContaining("Expected field 'join' in data of run event (token.emitted) seq 3 to be true or false");
        assertThatThrownBy(() -> RunEvents.parse(JSON.readTree("""
                {"seq": 3, "type": "node.started", "at": 1, "node": null, "token": "t", "data": {}}""")))
                .hasMessageContaining("Expected node.started (seq 3) to name a node and a token");
        assertThatThrownBy(() -> RunEvents.parse(JSON.readTree("\"run.started\"")))
                .hasMessageContaining("Expected a run event object or an array of them");
    }

    @Test
    void readsTextAsItsTreeWouldReadAndKeepsEachDataObjectAsWritten() {
        String text = """
                [ {"seq": 2, "type": "node.completed", "at": 1700000000000, "node": "A", "token": "tA",
                   "data": {"iteration": 0,  "output": {"text": "a } b \\" {", "n": 1.50}}},
                  {"data":{"from":"A","parent":"tA","iteration":0,"join":false},"seq":3,"type":"token.emitted","at":1,
                   "node":"B","token":"tB"},
                  {"seq": 4, "type": "run.completed", "at": 1, "node": null, "token": null} ]""";

        List<RunEvent> events = RunEvents.parse(text, JSON);

        assertThat(events).isEqualTo(RunEvents.parse(JSON.readTree(text)));
        assertThat(events).extracting(event -> event.header().dataText()).containsExactly(
                "{\"iteration\": 0,  \"output\": {\"text\": \"a } b \\\" {\", \"n\": 1.50}}",
                "{\"from\":\"A\",\"parent\":\"tA\",\"iteration\":0,\"join\":false}", null);
        assertThat(events).extracting(event -> event.header().dataJson()).element(2).isEqualTo("{}");
        assertThat(JSON.readTree(events.get(0).header().dataJson())).isEqualTo(events.get(0).data());
    }

    @Test
    void refusesTextThatIsNotRunEventsWhole() {
        String good = "[{\"seq\":1,\"type\":\"run.completed\",\"at\":1,\"data\":{}}]";
        assertThat(RunEvents.parse(good, JSON)).hasSize(1);
        assertThatThrownBy(() -> RunEvents.parse(good + " []", JSON)).isInstanceOf(MalformedRunEventException.class)
                .hasMessageContaining("Expected nothing after the run events");
        assertThatThrownBy(() -> RunEvents.parse("[{\"seq\":1,", JSON)).isInstanceOf(MalformedRunEventException.class)
                .hasMessageContaining("Expected run events as JSON");
        assertThatThrownBy(() -> RunEvents.parse("[1, 2]", JSON)).isInstanceOf(MalformedRunEventException.class)
                .hasMessage("Expected run event [0] to be an object, but found 1");
        assertThatThrownBy(() -> RunEvents.parse("\"run.started\"", JSON))
                .hasMessageContaining("Expected a run event object or an array of them");
        assertThatThrownBy(() -> RunEvents.parse("", JSON))
                .hasMessage("Expected a run event object or an array of them, but found nothing");
        assertThatThrownBy(() -> RunEvents.parse("[{\"seq\":1,\"type\":\"run.completed\",\"at\":1,\"data\":[]}]", JSON))
                .hasMessageContaining("Expected field 'data' in run event [0] (run.completed) to be an object");
        for (String seq : List.of("1.5", "true", "\"1\"", "123456789012345678901234567890", "-1")) {
            String event = "{\"seq\":" + seq + ",\"type\":\"run.completed\",\"at\":1}";
            assertThatThrownBy(() -> RunEvents.parse(event, JSON)).as(seq).isInstanceOf(MalformedRunEventException.class)
                    .hasMessage(catchThrowable(() -> RunEvents.parse(JSON.readTree(event))).getMessage());
        }
    }

    @Test
    void everyEventRecordHasExactlyOneType() {
        List<Class<?>> records = new ArrayList<>();
        collectRecords(RunEvent.class, records);

        assertThat(Arrays.stream(RunEventType.values()).<Class<?>>map(RunEventType::recordType).toList())
                .containsExactlyInAnyOrderElementsOf(records);
    }

    private static void collectRecords(Class<?> type, List<Class<?>> records) {
        if (type.isRecord()) {
            records.add(type);
            return;
        }
        for (Class<?> permitted : type.getPermittedSubclasses()) {
            collectRecords(permitted, records);
        }
    }
}
