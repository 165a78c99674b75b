package io.tokenflow.supervisor;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;

import org.postgresql.PGConnection;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Rows for PostgreSQL's {@code COPY … FROM STDIN} in its text format: a tab between columns, a newline after each
 * row, {@code \N} for null, and a backslash, tab, newline or carriage return inside a value escaped with a backslash.
 * {@code COPY} writes the rows of a page with one WAL record where an {@code INSERT} writes one per row, and has no
 * executor or array parameters to pass through; it only ever inserts (no {@code on conflict}).
 */
final class CopyRows {

    private final StringBuilder text = new StringBuilder(16 * 1024);
    private final int columns;
    private int column;
    private int rows;

    CopyRows(int columns) {
        this.columns = columns;
    }

    /**
     * Appends the next column of the current row: {@code null} for SQL null, an integer as its digits, anything else as
     * its text. A row ends after its last column.
     */
    CopyRows add(Object value) {
        if (column > 0) {
            text.append('\t');
        }
        if (value == null) {
            text.append("\\N");
        } else if (value instanceof Long || value instanceof Integer) {
            text.append(((Number) value).longValue());
        } else {
            escape(value.toString());
        }
        if (++column == columns) {
            text.append('\n');
            column = 0;
            rows++;
        }
        return this;
    }

    int rows() {
        return rows;
    }

    /** Copies the rows into {@code table (columns)} on the transaction's connection; does nothing without rows. */
    void copyInto(JdbcTemplate jdbc, String tableAndColumns) {
        if (column != 0) {
            throw new IllegalStateException("Expected whole rows of " + columns + " columns, but the last row has "
                    + column);
        }
        if (rows == 0) {
            return;
        }
        jdbc.execute((Connection connection) -> {
            try {
                return connection.unwrap(PGConnection.class).getCopyAPI()
                        .copyIn("copy " + tableAndColumns + " from stdin", new StringReader(text.toString()));
            } catch (IOException e) {
                throw new SQLException("Expected to copy " + rows + " rows into " + tableAndColumns + ", but could "
                        + "not send them", e);
            }
        });
    }

    String text() {
        return text.toString();
    }

    private void escape(String value) {
        int plain = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            String escaped = switch (c) {
                case '\\' -> "\\\\";
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                default -> null;
            };
            if (escaped != null) {
                text.append(value, plain, i).append(escaped);
                plain = i + 1;
            }
        }
        text.append(value, plain, value.length());
    }
}
