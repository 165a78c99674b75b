package io.tokenflow.supervisor;

import java.sql.SQLException;

import io.lettuce.core.RedisException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.TransactionException;

import tools.jackson.core.JacksonException;

/**
 * Tells a batch PostgreSQL refused for what it holds from one that failed for reasons of its own. Refused: a data
 * exception or an integrity violation (SQL states 22, 23), or an entry our code cannot read (malformed JSON or a
 * value out of its rules: a Jackson or an argument exception); some entry of the batch is poisoned, and writing it
 * again will fail again. Anything else from the database or Redis (unreachable, a connection dropped, a deadlock, a
 * timeout, a statement broken for every batch) is no entry's fault, and neither is any other exception (a bug would
 * fail every batch alike: splitting would quarantine them all and fail every run): the whole batch is retried with
 * backoff.
 */
final class Refusals {

    private Refusals() {
    }

    static boolean refusesData(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof DataIntegrityViolationException || dataState(cause)) {
                return true;
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof DataAccessException || cause instanceof TransactionException
                    || cause instanceof SQLException || cause instanceof RedisException) {
                return false;
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JacksonException || cause instanceof IllegalArgumentException) {
                return true;
            }
        }
        return false;
    }

    private static boolean dataState(Throwable cause) {
        return cause instanceof SQLException sql && sql.getSQLState() != null
                && (sql.getSQLState().startsWith("22") || sql.getSQLState().startsWith("23"));
    }
}
