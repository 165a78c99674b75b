package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import io.tokenflow.IntegrationTest;

@IntegrationTest
class ArrayColumnsIntegrationTests {

    @Autowired JdbcTemplate jdbc;

    @Test
    void jsonTextsBecomeJsonbWithSqlNullAndJsonNullKeptApart() {
        List<String> texts = Arrays.asList("{\"a\": [1, {\"b\": \"quote \\\" backslash \\\\ brace } é 😀\"}]}", null,
                "null", "\"text\"", "42");
        ArrayColumns rows = new ArrayColumns("int4", "text", "text");
        for (int i = 0; i < texts.size(); i++) {
            rows.add(i, "row {\"" + i + "\\", texts.get(i));
        }

        List<String> read = rows.query(jdbc, "select x.i, x.label, x.value::jsonb as value from unnest(?::int[], "
                + "?::text[], ?::text[]) with ordinality as x(i, label, value, n) order by x.n",
                (rs, i) -> rs.getInt("i") + "|" + rs.getString("label") + "|" + rs.getString("value"));

        assertThat(read).containsExactly(
                "0|row {\"0\\|{\"a\": [1, {\"b\": \"quote \\\" backslash \\\\ brace } é 😀\"}]}",
                "1|row {\"1\\|null", // SQL null: getString gives Java null
                "2|row {\"2\\|null", "3|row {\"3\\|\"text\"", "4|row {\"4\\|42");
        assertThat(rows.query(jdbc, "select count(*) filter (where x.value::jsonb is null) as sql_nulls from "
                + "unnest(?::int[], ?::text[], ?::text[]) as x(i, label, value)", (rs, i) -> rs.getInt("sql_nulls")))
                .containsExactly(1);
    }

    @Test
    void sendsEveryColumnTypeWithNullsAndTextsAnArrayLiteralWouldHaveToQuote() {
        UUID run = UUID.randomUUID();
        List<String> texts = Arrays.asList("NULL", "", null, "a,b", "{braces}", "\"quoted\" \\ back", " spaced ", "é 😀");
        ArrayColumns rows = new ArrayColumns("uuid", "int8", "int4", "text");
        for (int i = 0; i < texts.size(); i++) {
            rows.add(i == 2 ? null : run, i == 1 ? null : Long.MAX_VALUE - i, i == 3 ? null : i, texts.get(i));
        }

        List<String> read = rows.query(jdbc, "select x.run_id, x.big, x.small, x.label from unnest(?::uuid[], "
                + "?::bigint[], ?::int[], ?::text[]) with ordinality as x(run_id, big, small, label, n) order by x.n",
                (rs, i) -> rs.getObject("run_id", UUID.class) + "|" + rs.getObject("big") + "|" + rs.getObject("small")
                        + "|" + rs.getString("label"));

        assertThat(read).containsExactly(run + "|9223372036854775807|0|NULL", run + "|null|1|",
                "null|9223372036854775805|2|null", run + "|9223372036854775804|null|a,b",
                run + "|9223372036854775803|4|{braces}", run + "|9223372036854775802|5|\"quoted\" \\ back",
                run + "|9223372036854775801|6| spaced ", run + "|9223372036854775800|7|é 😀");
    }
}
