package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A start's PostgreSQL calls while PostgreSQL is unreachable (the real driver against a port nothing listens on):
 * they fail soft, and after a few failures starts stop waiting for it at all.
 */
class StartRowsTests {

    @Test
    void afterPostgresFailedToAnswerThreeStartsTheNextSkipItWithoutTryingToConnect() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        DelegatingDataSource unreachable = new DelegatingDataSource(
                new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/tokenflow?connectTimeout=1", "postgres", "")) {
            @Override
            public Connection getConnection() throws SQLException {
                attempts.incrementAndGet();
                return super.getConnection();
            }
        };
        StartRows rows = new StartRows(new JdbcTemplate(unreachable), new DataSourceTransactionManager(unreachable));

        for (int i = 0; i < 3; i++) {
            assertThat(rows.runOfKey("order-" + i)).isEmpty();
        }
        assertThat(attempts).hasValue(3);
        for (int i = 3; i < 20; i++) {
            assertThat(rows.runOfKey("order-" + i)).isEmpty();
        }

        assertThat(attempts).as("connection attempts while the breaker is open").hasValue(3);
        rows.destroy();
    }
}
