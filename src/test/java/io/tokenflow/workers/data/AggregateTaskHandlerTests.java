package io.tokenflow.workers.data;

import static io.tokenflow.workers.TestTasks.failure;
import static io.tokenflow.workers.TestTasks.json;
import static io.tokenflow.workers.TestTasks.output;
import static io.tokenflow.workers.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AggregateTaskHandlerTests {

    private static final String SALES = "{\"items\":["
            + "{\"region\":\"eu\",\"kind\":\"a\",\"amount\":10,\"price\":1.5},"
            + "{\"region\":\"us\",\"kind\":\"a\",\"amount\":5,\"price\":2.0},"
            + "{\"region\":\"eu\",\"kind\":\"b\",\"amount\":7},"
            + "{\"region\":\"eu\",\"kind\":\"a\",\"amount\":3,\"price\":0.5}]}";

    private final AggregateTaskHandler handler = new AggregateTaskHandler(DataHandlers.CEL);

    @Test
    void computesEveryOpPerGroupInOrderOfFirstAppearance() {
        String config = "{\"group_by\":[\"region\"],\"aggregations\":[{\"op\":\"count\"},"
                + "{\"op\":\"sum\",\"field\":\"amount\",\"as\":\"total\"},{\"op\":\"avg\",\"field\":\"amount\"},"
                + "{\"op\":\"min\",\"field\":\"amount\"},{\"op\":\"max\",\"field\":\"price\"},"
                + "{\"op\":\"count\",\"field\":\"price\"}]}";

        assertThat(output(handler.execute(task("aggregate", SALES, config)))).isEqualTo(json("{\"groups\":["
                + "{\"key\":{\"region\":\"eu\"},\"count\":3,\"total\":20,\"avg_amount\":6.666666666666667,"
                + "\"min_amount\":3,\"max_price\":1.5,\"count_price\":2},"
                + "{\"key\":{\"region\":\"us\"},\"count\":1,\"total\":5,\"avg_amount\":5.0,"
                + "\"min_amount\":5,\"max_price\":2.0,\"count_price\":1}]}"));
    }

    @Test
    void groupsBySeveralFields() {
        String config = "{\"group_by\":[\"region\",\"kind\"],\"aggregations\":[{\"op\":\"sum\",\"field\":\"amount\"}]}";

        assertThat(output(handler.execute(task("aggregate", SALES, config)))).isEqualTo(json("{\"groups\":["
                + "{\"key\":{\"region\":\"eu\",\"kind\":\"a\"},\"sum_amount\":13},"
                + "{\"key\":{\"region\":\"us\",\"kind\":\"a\"},\"sum_amount\":5},"
                + "{\"key\":{\"region\":\"eu\",\"kind\":\"b\"},\"sum_amount\":7}]}"));
    }

    @Test
    void withoutGroupByMakesOneGroupWithAnEmptyKeyEvenForNoItems() {
        String config = "{\"aggregations\":[{\"op\":\"count\"},{\"op\":\"sum\",\"field\":\"price\"},"
                + "{\"op\":\"avg\",\"field\":\"price\"}]}";

        assertThat(output(handler.execute(task("aggregate", SALES, config)))).isEqualTo(json("{\"groups\":["
                + "{\"key\":{},\"count\":4,\"sum_price\":4.0,\"avg_price\":1.3333333333333333}]}"));
        assertThat(output(handler.execute(task("aggregate", "{\"items\":[]}", config)))).isEqualTo(json(
                "{\"groups\":[{\"key\":{},\"count\":0,\"sum_price\":0,\"avg_price\":null}]}"));
    }

    @Test
    void aggregatesTheListAConfiguredExpressionGivesAndNestedFields() {
        String input = "{\"data\":[{\"o\":{\"n\":2}},{\"o\":{\"n\":9}},{\"o\":{}}]}";
        String config = "{\"list\":\"input.data\",\"aggregations\":[{\"op\":\"max\",\"field\":\"o.n\",\"as\":\"top\"}]}";

        assertThat(output(handler.execute(task("aggregate", input, config))))
                .isEqualTo(json("{\"groups\":[{\"key\":{},\"top\":9}]}"));
    }

    @Test
    void failsOnANonNumericValueToSum() {
        String input = "{\"items\":[{\"a\":1},{\"a\":\"x\"}]}";

        var failed = failure(handler.execute(task("aggregate", input,
                "{\"aggregations\":[{\"op\":\"sum\",\"field\":\"a\"}]}")));

        assertThat(failed.code()).isEqualTo("invalid_value");
        assertThat(failed.message()).contains("'a' to be a number for sum, but item 1 has x");
    }

    @Test
    void refusesAnUnknownOpAndASumWithoutField() {
        assertThat(failure(handler.execute(task("aggregate", SALES, "{\"aggregations\":[{\"op\":\"median\"}]}")))
                .message()).contains("among count, sum, avg, min, max, but found 'median'");
        assertThat(failure(handler.execute(task("aggregate", SALES, "{\"aggregations\":[{\"op\":\"sum\"}]}")))
                .code()).isEqualTo("invalid_config");
    }
}
