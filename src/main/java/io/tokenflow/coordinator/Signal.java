package io.tokenflow.coordinator;

import java.util.Map;
import java.util.UUID;

import io.tokenflow.engine.routing.AgentDecision;

/**
 * An entry of the completions stream, parsed: a worker's completion, a worker's start of slow work, a join that is
 * ready, or a malformed one.
 */
public sealed interface Signal permits Signal.Completion, Signal.Started, Signal.JoinReady, Signal.Malformed {

    String entryId();

    /**
     * A worker's completion signal.
     *
     * @param outputText the output as validated JSON text (completed), else null
     * @param outputRef  a CAS reference to the output (large outputs), else null
     * @param errorJson  the error object as JSON text (failed), else null
     * @param decision   an agent's routing proposal (field {@code decision}), else null
     */
    record Completion(String entryId, String token, UUID run, String node, boolean succeeded, String outputText,
                      String outputRef, String errorJson, String worker, Long startedAt, AgentDecision decision,
                      Integer attempt)
            implements Signal {

        /** The same report as a failure with this error (JSON object text). */
        Completion failedWith(String error) {
            return new Completion(entryId, token, run, node, false, null, null, error, worker, startedAt, null,
                    attempt);
        }
    }

    /**
     * A worker began a token's work (field {@code kind: started}), sent for work that does not finish at once, or is
     * still at it ({@code kind: heartbeat}, {@code heartbeat} true).
     */
    record Started(String entryId, String token, UUID run, String node, String worker, Long startedAt,
                   boolean heartbeat) implements Signal {
    }

    /** Posted by route-completion.lua when the last arrival at a join came in. */
    record JoinReady(String entryId, UUID run, String node, String token, int iteration) implements Signal {
    }

    /** An entry that is not a valid signal; {@code reason} says what was expected. */
    record Malformed(String entryId, Map<String, String> fields, String reason) implements Signal {
        public Malformed {
            fields = Map.copyOf(fields);
        }
    }
}
