package io.tokenflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonWordingTests {

    @Test
    void namesJsonKindsInsteadOfJavaTypes() {
        assertThat(JsonWording.withoutJavaNames("Cannot deserialize value of type `java.util.ArrayList<java.lang.String>`"
                + " from String value (token `JsonToken.VALUE_STRING`)"))
                .isEqualTo("Cannot deserialize value of type an array of strings from String value");
        assertThat(JsonWording.withoutJavaNames("Cannot deserialize value of type `java.lang.Integer` from String \"x\""))
                .isEqualTo("Cannot deserialize value of type a whole number from String \"x\"");
        assertThat(JsonWording.withoutJavaNames("Cannot deserialize value of type `int` from Boolean value"))
                .isEqualTo("Cannot deserialize value of type a whole number from Boolean value");
        assertThat(JsonWording.withoutJavaNames("value of type `java.util.LinkedHashMap<java.lang.String,"
                + "java.lang.Object>`")).isEqualTo("value of type an object");
    }

    @Test
    void leavesTheLimitOutOfItsSource() {
        assertThat(JsonWording.withoutJavaNames("Document nesting depth (1001) exceeds the maximum allowed (1000, from "
                + "`StreamReadConstraints.getMaxNestingDepth()`)"))
                .isEqualTo("Document nesting depth (1001) exceeds the maximum allowed (1000)");
    }
}
