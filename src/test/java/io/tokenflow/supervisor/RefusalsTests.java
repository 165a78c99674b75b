package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;

import io.tokenflow.engine.replay.MalformedRunEventException;
import tools.jackson.core.exc.StreamReadException;

class RefusalsTests {

    @Test
    void dataExceptionsAndIntegrityViolationsAreRefusalsOfTheBatchesData() {
        assertThat(Refusals.refusesData(new DataIntegrityViolationException("duplicate key"))).isTrue();
        assertThat(Refusals.refusesData(new UncategorizedSQLException("copy", "copy event_log",
                new SQLException("unsupported Unicode escape sequence", "22P05")))).isTrue();
        assertThat(Refusals.refusesData(new MalformedRunEventException("no seq"))).isTrue();
        assertThat(Refusals.refusesData(new IllegalArgumentException("not a run id"))).isTrue();
        assertThat(Refusals.refusesData(new IllegalStateException("wrapped",
                new StreamReadException(null, "Unexpected end-of-input")))).isTrue();
    }

    @Test
    void anUnreachableDatabaseOrRedisAndBrokenStatementsAreNoEntrysFault() {
        assertThat(Refusals.refusesData(new CannotGetJdbcConnectionException("refused",
                new SQLException("Connection refused", "08001")))).isFalse();
        assertThat(Refusals.refusesData(new CannotCreateTransactionException("no connection"))).isFalse();
        assertThat(Refusals.refusesData(new DataAccessResourceFailureException("I/O error"))).isFalse();
        assertThat(Refusals.refusesData(new PessimisticLockingFailureException("deadlock detected"))).isFalse();
        assertThat(Refusals.refusesData(new BadSqlGrammarException("write", "select",
                new SQLException("syntax error", "42601")))).isFalse();
        assertThat(Refusals.refusesData(new RedisConnectionException("Unable to connect"))).isFalse();
        assertThat(Refusals.refusesData(new NullPointerException("a bug fails every batch alike"))).isFalse();
        assertThat(Refusals.refusesData(new IllegalStateException("so does this one"))).isFalse();
    }
}
