package io.tokenflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.transaction.CannotCreateTransactionException;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;

class OutagesTests {

    @Test
    void findsPostgresUnreachableBehindSpringsAndSecuritysWrappers() {
        assertThat(Outages.of(new CannotCreateTransactionException("no connection",
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available")))).get()
                .extracting(Outages.Outage::store).isEqualTo("PostgreSQL");
        assertThat(Outages.of(new InternalAuthenticationServiceException("lookup failed",
                new CannotGetJdbcConnectionException("Connection refused")))).get()
                .extracting(Outages.Outage::detail).isEqualTo("Expected PostgreSQL to answer, but it is unreachable "
                        + "(Connection refused); retry in 5 s");
    }

    @Test
    void findsRedisUnreachableThoughSpringCallsATimeoutAQueryTimeout() {
        assertThat(Outages.of(new QueryTimeoutException("Redis command timed out",
                new RedisCommandTimeoutException("Command timed out after 2 second(s)")))).get()
                .extracting(Outages.Outage::store).isEqualTo("Redis");
        assertThat(Outages.of(new RedisConnectionFailureException("Unable to connect",
                new RedisConnectionException("Connection refused")))).get()
                .extracting(Outages.Outage::store).isEqualTo("Redis");
    }

    @Test
    void leavesOtherFailuresAlone() {
        assertThat(Outages.of(new DataIntegrityViolationException("duplicate key"))).isEmpty();
        assertThat(Outages.of(new PessimisticLockingFailureException("deadlock detected"))).isEmpty();
        assertThat(Outages.of(new IllegalStateException("bug", new RuntimeException("cause")))).isEmpty();
    }
}
