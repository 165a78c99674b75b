package io.tokenflow.workers.data;

import static io.tokenflow.workers.TestTasks.failure;
import static io.tokenflow.workers.TestTasks.json;
import static io.tokenflow.workers.TestTasks.output;
import static io.tokenflow.workers.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FilterTaskHandlerTests {

    private final FilterTaskHandler handler = new FilterTaskHandler(DataHandlers.CEL);

    @Test
    void keepsTheItemsMatchingThePredicate() {
        String input = "{\"min\":10,\"items\":[{\"v\":5},{\"v\":10},{\"v\":15.5}]}";

        assertThat(output(handler.execute(task("filter", input, "{\"predicate\":\"item.v >= input.min\"}"))))
                .isEqualTo(json("{\"items\":[{\"v\":10},{\"v\":15.5}],\"count\":2}"));
    }

    @Test
    void filtersTheListAConfiguredExpressionGives() {
        String input = "{\"orders\":{\"open\":[1,2,3,4]}}";
        String config = "{\"list\":\"input.orders.open\",\"predicate\":\"item % 2 == 0\"}";

        assertThat(output(handler.execute(task("filter", input, config))))
                .isEqualTo(json("{\"items\":[2,4],\"count\":2}"));
    }

    @Test
    void failsWhenThePredicateGivesNoBoolean() {
        var failed = failure(handler.execute(task("filter", "{\"items\":[1]}", "{\"predicate\":\"item + 1\"}")));

        assertThat(failed.code()).isEqualTo("not_a_boolean");
        assertThat(failed.message()).contains("'item + 1'").contains("gave 2 for item 0");
    }

    @Test
    void failsWhenTheListIsNoList() {
        var failed = failure(handler.execute(task("filter", "{\"items\":{\"a\":1}}", "{\"predicate\":\"true\"}")));

        assertThat(failed.code()).isEqualTo("not_a_list");
        assertThat(failed.message()).contains("'input.items'").contains("gave object");
    }

    @Test
    void aRunawayPredicateIsStopped() {
        String predicate = "[1,2,3].all(a, [1,2,3].all(b, [1,2,3].all(c, [1,2,3].all(d, [1,2,3].all(e, "
                + "[1,2,3].all(f, [1,2,3].all(g, [1,2,3].all(h, [1,2,3].all(i, true)))))))))";

        var failed = failure(handler.execute(task("filter", "{\"items\":[1]}",
                "{\"predicate\":\"" + predicate + "\"}")));

        assertThat(failed.code()).isEqualTo("expression_error");
        assertThat(failed.message()).contains("config.predicate");
    }
}
