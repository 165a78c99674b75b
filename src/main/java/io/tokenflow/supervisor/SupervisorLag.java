package io.tokenflow.supervisor;

import java.time.Duration;

/**
 * How far the event log is behind Redis.
 *
 * @param entries events-stream entries not yet written to PostgreSQL (unread or unacknowledged), over all shards
 * @param oldest  how long ago the oldest of them was appended; zero when there is none
 */
public record SupervisorLag(long entries, Duration oldest) {

    public boolean caughtUp() {
        return entries == 0;
    }
}
