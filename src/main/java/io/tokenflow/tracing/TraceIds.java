package io.tokenflow.tracing;

import java.util.UUID;

/**
 * The W3C trace-context ids of a run's spans, derived from ids the engine has anyway, so that every process computes
 * the same ones without sharing state: the trace id is the run id's 32 hexadecimal digits; a span id is a 64-bit hash
 * of what the span is about (the run, a token, a token's attempt). Written by hand: OpenTelemetry's id generator makes
 * random ids, and these must be the same wherever they are computed.
 */
public final class TraceIds {

    private TraceIds() {
    }

    /** The run's trace id: its id without dashes. */
    public static String traceId(UUID run) {
        return run.toString().replace("-", "");
    }

    /** The span of the run as a whole, the parent of its node executions. */
    public static String runSpan(UUID run) {
        return spanId("run:" + run);
    }

    /** The span of a token at its node (all its attempts), the parent its worker's spans join. */
    public static String nodeSpan(String token) {
        return spanId("node:" + token);
    }

    /** The span of one attempt of a token's task. */
    public static String attemptSpan(String token, int attempt) {
        return spanId("attempt:" + token + "#" + attempt);
    }

    /** The span of one routing step of a token's signal (the completions-stream entry {@code entryId}). */
    public static String stepSpan(String token, String entryId) {
        return spanId("step:" + token + "@" + entryId);
    }

    /**
     * The {@code traceparent} header (W3C trace context, version 00, sampled) a worker gets with a token: the run's
     * trace, and the token's node span as the parent.
     */
    public static String traceparent(UUID run, String token) {
        return "00-" + traceId(run) + "-" + nodeSpan(token) + "-01";
    }

    /** 16 hexadecimal digits of a 64-bit FNV-1a hash with a final mix; never all zeros (an invalid span id). */
    static String spanId(String of) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < of.length(); i++) {
            hash ^= of.charAt(i);
            hash *= 0x100000001b3L;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        String hex = Long.toHexString(hash == 0 ? 1 : hash);
        return "0".repeat(16 - hex.length()) + hex;
    }
}
