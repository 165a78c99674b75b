package io.tokenflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonWordingTests {

    @Test
    void namesJsonKindsInsteadOfJavaTypes() {
        assertThat(JsonWording.withoutJavaNames("Cannot deserialize value of type `java.util.ArrayList<java.lang.String>`"
                + " from String value (token `JsonToken.VALUE_STRING`)"))
                .isEqualTo("Cannot deserialize value of type an array of strings from a string");
        assertThat(JsonWording.withoutJavaNames("Cannot deserialize value of type `java.lang.Integer` from String \"x\""))
                .isEqualTo("Cannot deserialize value of type a whole number from String \"x\"");
        assertThat(JsonWording.withoutJavaNames("Cannot deserialize value of type `int` from Boolean value"))
                .isEqualTo("Cannot deserialize value of type a whole number from true or false");
        // found by ApiFuzzIntegrationTests: "Integer" named the JSON kind found in Java's words
        assertThat(JsonWording.withoutJavaNames("Cannot deserialize value of type `java.util.ArrayList<java.lang."
                + "String>` from Integer value (token `JsonToken.VALUE_NUMBER_INT`)"))
                .isEqualTo("Cannot deserialize value of type an array of strings from a whole number");
        assertThat(JsonWording.withoutJavaNames("value of type `java.util.LinkedHashMap<java.lang.String,"
                + "java.lang.Object>`")).isEqualTo("value of type an object");
    }

    @Test
    void saysWhichKindAValueNoConstructorTakesShouldHaveBeen() {
        assertThat(JsonWording.withoutJavaNames("Cannot construct instance of `io.tokenflow.approvals.Decision` "
                + "(although at least one Creator exists): no long/Long-argument constructor/factory method to "
                + "deserialize from Number value (2147483648)"))
                .isEqualTo("Expected an object, but found a number (2147483648)");
        assertThat(JsonWording.withoutJavaNames("Cannot construct instance of `io.tokenflow.runs.Thing` (although at "
                + "least one Creator exists): no String-argument constructor/factory method to deserialize from "
                + "String value ('x')")).isEqualTo("Expected an object, but found a string ('x')");
    }

    @Test
    void leavesTheLimitOutOfItsSource() {
        assertThat(JsonWording.withoutJavaNames("Document nesting depth (1001) exceeds the maximum allowed (1000, from "
                + "`StreamReadConstraints.getMaxNestingDepth()`)"))
                .isEqualTo("Document nesting depth (1001) exceeds the maximum allowed (1000)");
    }
}
