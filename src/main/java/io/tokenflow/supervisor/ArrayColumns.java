package io.tokenflow.supervisor;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * Rows gathered column by column and written by one statement whose parameters are arrays, one element per row
 * ({@code select … from unnest(?::uuid[], ?::bigint[], …)}): binding a handful of array parameters costs far less
 * than binding every value of a JDBC batch. Times travel as epoch milliseconds ({@link #EPOCH_MS} turns them back).
 * JSON travels as text and is cast per element ({@code x.output::jsonb}): sent whole as one JSON array and taken
 * apart with {@code jsonb_array_elements}, PostgreSQL built every element's jsonb twice (the array's, then the
 * element's copy), twice the time of a cast per element.
 */
final class ArrayColumns {

    /** SQL turning an epoch-milliseconds column {@code %s} into a {@code timestamptz} (null stays null). */
    static final String EPOCH_MS = "(timestamptz 'epoch' + %s * interval '1 millisecond')";

    private final String[] types;
    private final List<List<Object>> columns = new ArrayList<>();
    private int rows;

    /** @param types the PostgreSQL element type of each column ({@code uuid}, {@code int8}, {@code text}, …) */
    ArrayColumns(String... types) {
        this.types = types.clone();
        for (int i = 0; i < types.length; i++) {
            columns.add(new ArrayList<>());
        }
    }

    void add(Object... values) {
        if (values.length != types.length) {
            throw new IllegalArgumentException("Expected " + types.length + " values, but got " + values.length);
        }
        for (int i = 0; i < values.length; i++) {
            columns.get(i).add(values[i]);
        }
        rows++;
    }

    boolean isEmpty() {
        return rows == 0;
    }

    static Long epochMillis(Instant at) {
        return at == null ? null : at.toEpochMilli();
    }

    /** Runs {@code sql}, whose parameters are the columns in order. */
    void execute(JdbcTemplate jdbc, String sql) {
        if (!isEmpty()) {
            jdbc.execute((Connection connection) -> run(connection, sql, PreparedStatement::executeUpdate));
        }
    }

    /** Runs {@code sql} (e.g. with {@code returning}), whose parameters are the columns in order; its rows mapped. */
    <T> List<T> query(JdbcTemplate jdbc, String sql, RowMapper<T> mapper) {
        if (isEmpty()) {
            return List.of();
        }
        return jdbc.execute((Connection connection) -> run(connection, sql, statement -> {
            List<T> results = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    results.add(mapper.mapRow(rs, results.size()));
                }
            }
            return results;
        }));
    }

    private <T> T run(Connection connection, String sql, StatementCallback<T> callback) throws SQLException {
        List<Array> arrays = new ArrayList<>(types.length);
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < types.length; i++) {
                Array array = connection.createArrayOf(types[i], elements(types[i], columns.get(i)));
                arrays.add(array);
                statement.setArray(i + 1, array);
            }
            return callback.apply(statement);
        } finally {
            for (Array array : arrays) {
                free(array);
            }
        }
    }

    /**
     * A column as the typed Java array the driver sends in binary: {@code Long[]}, {@code Integer[]} or {@code String[]}
     * go out as they are, where an {@code Object[]} would be written as an array literal, every text escaped character
     * by character (18 % of the supervisor thread's samples), and PostgreSQL parses binary arrays faster too. Other
     * types keep the literal. Uuids must: the driver has no binary uuid[] encoder, and sent as text[] cast by the
     * statement, they made PostgreSQL 15 (not 17) spend seven times as long per hop.
     */
    private static Object[] elements(String type, List<Object> values) {
        return switch (type) {
            case "int8" -> values.stream().map(value -> value == null ? null : ((Number) value).longValue())
                    .toArray(Long[]::new);
            case "int4" -> values.stream().map(value -> value == null ? null : ((Number) value).intValue())
                    .toArray(Integer[]::new);
            case "text" -> values.stream().map(value -> value == null ? null : value.toString())
                    .toArray(String[]::new);
            default -> values.toArray();
        };
    }

    @FunctionalInterface
    private interface StatementCallback<T> {
        T apply(PreparedStatement statement) throws SQLException;
    }

    private static void free(Array array) {
        try {
            array.free();
        } catch (SQLException ignored) {
            // the driver keeps nothing outside the Java heap for these arrays
        }
    }
}
