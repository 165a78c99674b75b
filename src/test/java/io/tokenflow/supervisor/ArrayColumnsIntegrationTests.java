package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import io.tokenflow.IntegrationTest;

@IntegrationTest
class ArrayColumnsIntegrationTests {

    @Autowired JdbcTemplate jdbc;

    @Test
    void rowsComeBackInOrderWithSqlNullAndJsonNullKeptApart() {
        List<String> texts = Arrays.asList("{\"a\": [1, {\"b\": \"quote \\\" backslash \\\\ brace } é 😀\"}]}", null,
                "null", "\"text\"", "42");
        ArrayColumns rows = new ArrayColumns("int4", "text", ArrayColumns.JSON_ARRAY);
        for (int i = 0; i < texts.size(); i++) {
            rows.add(i, "row {\"" + i + "\\", texts.get(i));
        }

        List<String> read = rows.query(jdbc, "select x.i, x.label, d.e -> 'v' as value from unnest(?::int[], ?::text[]) "
                + "with ordinality as x(i, label, n) join " + ArrayColumns.jsonElements("d") + " on d.n = x.n "
                + "order by x.n", (rs, i) -> rs.getInt("i") + "|" + rs.getString("label") + "|"
                + rs.getString("value"));

        assertThat(read).containsExactly(
                "0|row {\"0\\|{\"a\": [1, {\"b\": \"quote \\\" backslash \\\\ brace } é 😀\"}]}",
                "1|row {\"1\\|null", // SQL null: getString gives Java null
                "2|row {\"2\\|null", "3|row {\"3\\|\"text\"", "4|row {\"4\\|42");
        assertThat(rows.query(jdbc, "select count(*) filter (where d.e -> 'v' is null) as sql_nulls from "
                + "unnest(?::int[], ?::text[]) with ordinality as x(i, label, n) join " + ArrayColumns.jsonElements("d")
                + " on d.n = x.n", (rs, i) -> rs.getInt("sql_nulls"))).containsExactly(1);
    }
}
