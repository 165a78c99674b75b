package io.tokenflow.runs;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * New run ids: RFC 9562 version 7 UUIDs (48 bits of Unix milliseconds, then 74 random bits). Ids of runs started
 * close together sit close together in every index keyed by run ({@code runs}, {@code event_log},
 * {@code node_executions}), so the supervisor's inserts touch a few recent index pages instead of one random page per
 * run. The random part keeps ids unguessable and spreads runs evenly over shards.
 */
final class RunIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Clock clock;

    RunIds(Clock clock) {
        this.clock = clock;
    }

    UUID next() {
        byte[] random = new byte[10];
        RANDOM.nextBytes(random);
        long millis = clock.millis();
        long high = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | ((random[0] & 0x0FL) << 8) | (random[1] & 0xFFL);
        long low = 0x8000_0000_0000_0000L | ((random[2] & 0x3FL) << 56);
        for (int i = 3; i < 10; i++) {
            low |= (random[i] & 0xFFL) << (8 * (9 - i));
        }
        return new UUID(high, low);
    }
}
