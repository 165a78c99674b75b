package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CopyRowsTests {

    @Test
    void separatesColumnsByTabsAndRowsByNewlinesWithNullsAsBackslashN() {
        CopyRows rows = new CopyRows(3);
        rows.add("a").add(1L).add(null).add(null).add(2).add("b");

        assertThat(rows.text()).isEqualTo("a\t1\t\\N\n\\N\t2\tb\n");
        assertThat(rows.rows()).isEqualTo(2);
    }

    @Test
    void escapesBackslashesTabsNewlinesAndCarriageReturnsAndNothingElse() {
        CopyRows rows = new CopyRows(1);
        rows.add("{\"k\": \"quote \\\" backslash \\\\ é 😀\"}\r\n\t}");

        assertThat(rows.text()).isEqualTo("{\"k\": \"quote \\\\\" backslash \\\\\\\\ é 😀\"}\\r\\n\\t}\n");
    }

    @Test
    void refusesToCopyAnUnfinishedRow() {
        CopyRows rows = new CopyRows(2);
        rows.add("only one");

        assertThatThrownBy(() -> rows.copyInto(null, "t (a, b)")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the last row has 1");
    }
}
