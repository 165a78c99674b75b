package io.tokenflow.supervisor;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * The event log's lag behind Redis. Written entries are deleted from the events streams, so what a stream still holds
 * is what the supervisors have not written yet, and its first entry is the oldest of it.
 */
@Component
public class EventLogLag implements MeterBinder {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final Clock clock;

    EventLogLag(RedisConnections redis, RedisKeys keys, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.clock = clock;
    }

    public SupervisorLag lag() {
        long entries = 0;
        long oldestMillis = Long.MAX_VALUE;
        for (int shard = 0; shard < keys.shards(); shard++) {
            String stream = keys.eventsStream(shard);
            entries += redis.commands().xlen(stream);
            List<StreamMessage<String, String>> first = redis.commands().xrange(stream, Range.create("-", "+"),
                    Limit.create(0, 1));
            if (!first.isEmpty()) {
                oldestMillis = Math.min(oldestMillis, Long.parseLong(first.get(0).getId().split("-")[0]));
            }
        }
        Duration oldest = oldestMillis == Long.MAX_VALUE ? Duration.ZERO
                : Duration.ofMillis(Math.max(0, clock.millis() - oldestMillis));
        return new SupervisorLag(entries, oldest);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("tokenflow.eventlog.lag.entries", this, lag -> lag.lag().entries())
                .description("Run events in Redis not yet written to the PostgreSQL event log").register(registry);
        Gauge.builder("tokenflow.eventlog.lag.seconds", this, lag -> lag.lag().oldest().toMillis() / 1000.0)
                .description("Age of the oldest run event not yet written to the event log").register(registry);
    }
}
