package io.tokenflow.web;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;

/**
 * Tells a failure because PostgreSQL or Redis cannot be reached (or answer in time) from any other: such a request
 * is answered {@code 503 Service Unavailable} with {@code Retry-After}, never 401 or 500. The whole cause chain is
 * looked at, as Spring wraps the drivers' exceptions (and Spring Security wraps them once more). Other transient
 * failures (a deadlock, a serialization failure) are no outage: they stay what they were.
 */
public final class Outages {

    /** What a 503 tells the client to wait before trying again. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private Outages() {
    }

    /** The store that could not be reached, if that is why {@code failure} happened. */
    public static Optional<Outage> of(Throwable failure) {
        Optional<Outage> redis = find(failure, cause -> cause instanceof RedisConnectionFailureException
                || cause instanceof RedisConnectionException || cause instanceof RedisCommandTimeoutException)
                .map(cause -> new Outage("Redis", cause));
        return redis.or(() -> find(failure, cause -> cause instanceof DataAccessResourceFailureException
                || cause instanceof TransientDataAccessResourceException || cause instanceof QueryTimeoutException
                || cause instanceof RecoverableDataAccessException
                || cause instanceof CannotCreateTransactionException
                || cause instanceof SQLTransientConnectionException)
                .map(cause -> new Outage("PostgreSQL", cause)));
    }

    private static Optional<Throwable> find(Throwable failure, Predicate<Throwable> test) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (test.test(cause)) {
                return Optional.of(cause);
            }
        }
        return Optional.empty();
    }

    /**
     * @param store the server that could not be reached: {@code PostgreSQL} or {@code Redis}
     * @param cause the exception that says so
     */
    public record Outage(String store, Throwable cause) {

        /** "Expected X, but Y", for the problem's detail and the log. */
        public String detail() {
            return "Expected " + store + " to answer, but it is unreachable (" + rootMessage()
                    + "); retry in " + RETRY_AFTER.toSeconds() + " s";
        }

        private String rootMessage() {
            Throwable root = cause;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        }
    }
}
