package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.ir.IrForm;
import tools.jackson.databind.node.ObjectNode;

/** A human node's form compiles into its IR; bad names, pointers and types are diagnostics at their pointers. */
class HumanFormTests {

    private static final String FIELDS = "/nodes/1/human/form/fields";

    @Test
    void compilesTheFormIntoTheIrWithTextAndTheNameAsDefaults() {
        CompilationResult result = Fixtures.compile("valid/hitl-form");
        assertThat(result.errors()).isEmpty();
        IrForm form = result.ir().nodes().get("purchase_approval").human().form();
        assertThat(form.fields()).extracting(IrForm.Field::name, IrForm.Field::label, IrForm.Field::pointer,
                IrForm.Field::type).containsExactly(tuple("amount", "Amount", "/input/amount", "number"),
                tuple("supplier", "Supplier", "/payload/supplier", "text"),
                tuple("urgent", "Urgent", "/payload/urgent", "boolean"),
                tuple("quote", "Quote", "/payload/quote_url", "url"));
        assertThat(Fixtures.compile("valid/hitl-approval").ir().nodes().get("manager_approval").human().form())
                .isNull();
    }

    @Test
    void refusesADuplicateNameAndAPointerOutsideInputAndPayloadAtOnce() {
        ObjectNode workflow = (ObjectNode) Fixtures.load("valid/hitl-form");
        ObjectNode second = (ObjectNode) workflow.at(FIELDS + "/1");
        second.put("name", "amount").put("pointer", "payload/supplier");
        ((ObjectNode) workflow.at(FIELDS + "/2")).put("pointer", "/payload/a~2b");

        assertThat(Fixtures.COMPILER.compile(workflow).errors())
                .extracting(Diagnostic::code, Diagnostic::nodeId, Diagnostic::pointer)
                .containsExactly(tuple("human-form", "purchase_approval", FIELDS + "/1/name"),
                        tuple("human-form", "purchase_approval", FIELDS + "/1/pointer"),
                        tuple("human-form", "purchase_approval", FIELDS + "/2/pointer"));
        assertThat(Fixtures.COMPILER.compile(workflow).errors().get(1).message()).isEqualTo("Expected a JSON Pointer "
                + "into the run's input (/input/…) or what reached the node (/payload/…), with ~ written ~0 and / in "
                + "a name ~1, but found 'payload/supplier'");
        assertThat(Fixtures.COMPILER.compile(workflow).errors().get(0).message())
                .isEqualTo("Expected the form fields of human node 'purchase_approval' to have unique names, but "
                        + "'amount' is also the name of field 0");
    }

    @Test
    void refusesAnUnknownTypeNamingTheKnownOnes() {
        ObjectNode workflow = (ObjectNode) Fixtures.load("valid/hitl-form");
        ((ObjectNode) workflow.at(FIELDS + "/0")).put("type", "money");

        Diagnostic error = Fixtures.COMPILER.compile(workflow).errors().get(0);
        assertThat(error.pointer()).isEqualTo(FIELDS + "/0/type");
        assertThat(error.nodeId()).isEqualTo("purchase_approval");
        assertThat(error.message()).startsWith("Expected \"" + FIELDS + "/0/type\" to be one of [\"text\",\"number\"")
                .endsWith("but found string \"money\"");
    }
}
