package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.conditions.ConditionEngine;
import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.types.BuiltInNodeTypes;
import io.tokenflow.triggers.SpringCronSyntax;

/** Triggers: every problem at its pointer, with the codes invalid-trigger and duplicate-trigger. */
class TriggerChecksTests {

    private static final WorkflowCompiler COMPILER = new WorkflowCompiler(BuiltInNodeTypes.get(),
            ConditionEngine.withDefaults(), new SpringCronSyntax());

    private static CompilationResult compile(String triggers) {
        return COMPILER.compile(Fixtures.JSON.readTree("""
                {"name": "triggered", "inputs": {"type": "object", "properties": {"mode": {"type": "string",
                 "enum": ["full", "delta"]}}, "required": ["mode"]},
                 "nodes": [{"id": "a", "type": "function", "config": {"function": "noop"}}],
                 "triggers": %s}""".formatted(triggers)));
    }

    @Test
    void acceptsCronAndWebhookTriggers() {
        CompilationResult result = compile("""
                [{"id": "nightly", "type": "cron", "cron": "0 0 2 * * *", "time_zone": "Europe/Berlin",
                  "missed": "fire_once", "inputs": {"mode": "full"}},
                 {"id": "orders", "type": "webhook", "auth": "hmac"}]""");
        assertThat(result.diagnostics()).isEmpty();
        assertThat(result.succeeded()).isTrue();
    }

    @Test
    void refusesACronThatDoesNotParse() {
        assertThat(compile("[{\"id\": \"n\", \"type\": \"cron\", \"cron\": \"0 0 25 * * *\", \"inputs\": "
                + "{\"mode\": \"full\"}}]").errors())
                .extracting(Diagnostic::code, Diagnostic::pointer)
                .containsExactly(tuple("invalid-trigger", "/triggers/0/cron"));
    }

    @Test
    void refusesAnUnknownTimeZone() {
        Diagnostic error = compile("[{\"id\": \"n\", \"type\": \"cron\", \"cron\": \"0 0 2 * * *\", \"time_zone\": "
                + "\"Mars/Olympus\", \"inputs\": {\"mode\": \"full\"}}]").errors().get(0);
        assertThat(error.code()).isEqualTo("invalid-trigger");
        assertThat(error.pointer()).isEqualTo("/triggers/0/time_zone");
        assertThat(error.message()).contains("Mars/Olympus");
    }

    @Test
    void refusesAnUnknownMissedPolicyThroughTheSchema() {
        assertThat(compile("[{\"id\": \"n\", \"type\": \"cron\", \"cron\": \"0 0 2 * * *\", \"missed\": \"all\"}]")
                .errors()).extracting(Diagnostic::code, Diagnostic::pointer)
                .containsExactly(tuple("schema", "/triggers/0/missed"));
    }

    @Test
    void refusesDuplicateTriggerIds() {
        assertThat(compile("""
                [{"id": "hook", "type": "webhook", "auth": "secret"},
                 {"id": "hook", "type": "webhook", "auth": "hmac"}]""").errors())
                .extracting(Diagnostic::code, Diagnostic::pointer)
                .containsExactly(tuple("duplicate-trigger", "/triggers/1/id"));
    }

    @Test
    void refusesCronInputsThatDoNotMatchTheWorkflowsInputs() {
        assertThat(compile("""
                [{"id": "a", "type": "cron", "cron": "@daily", "inputs": {"mode": "partial"}},
                 {"id": "b", "type": "cron", "cron": "@daily"}]""").errors())
                .extracting(Diagnostic::code, Diagnostic::pointer)
                .containsExactly(tuple("invalid-trigger", "/triggers/0/inputs/mode"),
                        tuple("invalid-trigger", "/triggers/1/inputs/mode"));
    }

    @Test
    void refusesMembersOfTheOtherTriggerType() {
        assertThat(compile("""
                [{"id": "a", "type": "webhook", "auth": "secret", "cron": "@daily"},
                 {"id": "b", "type": "cron", "cron": "@daily", "auth": "hmac", "inputs": {"mode": "full"}}]""")
                .errors()).extracting(Diagnostic::code, Diagnostic::pointer)
                .containsExactly(tuple("invalid-trigger", "/triggers/0/cron"),
                        tuple("invalid-trigger", "/triggers/1/auth"));
    }

    @Test
    void refusesAWebhookWithoutAuthAndACronWithoutSchedule() {
        assertThat(compile("[{\"id\": \"a\", \"type\": \"webhook\"}, {\"id\": \"b\", \"type\": \"cron\", \"inputs\": "
                + "{\"mode\": \"full\"}}]").errors())
                .extracting(Diagnostic::code, Diagnostic::pointer)
                .containsExactly(tuple("invalid-trigger", "/triggers/0/auth"), tuple("invalid-trigger", "/triggers/1/cron"));
    }

    @Test
    void refusesUnknownMembersAndBadIdsThroughTheSchema() {
        assertThat(compile("[{\"id\": \"Bad Id\", \"type\": \"webhook\", \"auth\": \"secret\", \"enabled\": false}]")
                .errors()).extracting(Diagnostic::code).containsOnly("schema");
    }

    @Test
    void aCompilerWithoutACronParserRefusesCronTriggers() {
        CompilationResult result = Fixtures.COMPILER.compile(Fixtures.JSON.readTree("""
                {"name": "t", "nodes": [{"id": "a", "type": "function", "config": {"function": "noop"}}],
                 "triggers": [{"id": "n", "type": "cron", "cron": "@daily"}]}"""));
        assertThat(result.errors()).extracting(Diagnostic::pointer).containsExactly("/triggers/0/cron");
    }
}
