package io.tokenflow.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.IntegrationTest;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/** A tenant's sliding minute of hops on real Redis, at chosen instants. */
@IntegrationTest
class TenantHopsIntegrationTests {

    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired LuaScripts scripts;

    private final String tenant = "t-" + UUID.randomUUID().toString().substring(0, 8);
    /** Half past some minute of the future (so no other test's counts are in it). */
    private final Instant halfPast = Instant.now().plus(Duration.ofDays(400)).truncatedTo(ChronoUnit.MINUTES)
            .plusSeconds(30);

    @Test
    void theLastMinuteCountsThisMinuteAndThePartOfThePreviousOneStillWithinIt() {
        hopsAt(halfPast).add(tenant, 40);
        hopsAt(halfPast.plusSeconds(20)).add(tenant, 20);

        assertThat(hopsAt(halfPast.plusSeconds(29)).lastMinute(tenant)).isEqualTo(60);
        assertThat(hopsAt(halfPast.plusSeconds(29)).untilNextMinute()).isEqualTo(Duration.ofSeconds(1));
        // 15 s into the next minute: three quarters of the previous minute still lie within the last 60 s
        hopsAt(halfPast.plusSeconds(45)).add(tenant, 5);
        assertThat(hopsAt(halfPast.plusSeconds(45)).lastMinute(tenant)).isEqualTo(5 + 45);
        assertThat(hopsAt(halfPast.plusSeconds(45)).untilNextMinute()).isEqualTo(Duration.ofSeconds(45));
        // two minutes on, nothing is left; other tenants never saw any of it
        assertThat(hopsAt(halfPast.plusSeconds(150)).lastMinute(tenant)).isZero();
        assertThat(hopsAt(halfPast).lastMinute("other-" + tenant)).isZero();
    }

    @Test
    void aMinutesCountExpiresOnItsOwn() {
        hopsAt(halfPast).add(tenant, 1);
        long minute = halfPast.toEpochMilli() / 60_000;
        long ttl = redis.commands().ttl(keys.tenantHops(tenant, minute));
        assertThat(ttl).isBetween(120L, 180L);
    }

    private TenantHops hopsAt(Instant at) {
        return new TenantHops(redis, keys, scripts, Clock.fixed(at, ZoneOffset.UTC));
    }
}
