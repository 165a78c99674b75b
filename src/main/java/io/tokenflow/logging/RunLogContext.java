package io.tokenflow.logging;

import org.slf4j.MDC;

/**
 * The correlation fields of an engine log line: the run, node, token and node type the thread works on, put in SLF4J's
 * MDC while it does, so that every line logged meanwhile carries them — as fields of a JSON line with Spring Boot's
 * structured logging ({@code logging.structured.format.console=ecs}, {@code logstash} or {@code gelf}) and as
 * {@code %X{run_id}} in a pattern. {@code trace_id} is the run's W3C trace id: the 32 hexadecimal digits of its id,
 * the same on every line of the run on every instance. Written by hand because SLF4J's {@code MDC.putCloseable} takes
 * one key; a context closed removes the keys it put, so a thread reused for another run starts clean.
 */
public final class RunLogContext implements AutoCloseable {

    public static final String RUN = "run_id";
    public static final String NODE = "node_id";
    public static final String TOKEN = "token_id";
    public static final String NODE_TYPE = "node_type";
    public static final String TRACE = "trace_id";

    private static final RunLogContext NONE = new RunLogContext(false);

    private final boolean put;

    private RunLogContext(boolean put) {
        this.put = put;
    }

    /** The context of a run, or of one of its tokens at a node; null fields are left out. */
    public static RunLogContext of(Object run, String node, String token, String nodeType) {
        if (run == null) {
            return NONE;
        }
        String id = run.toString();
        MDC.put(RUN, id);
        if (id.length() == 36) {
            MDC.put(TRACE, id.replace("-", ""));
        }
        putIfPresent(NODE, node);
        putIfPresent(TOKEN, token);
        putIfPresent(NODE_TYPE, nodeType);
        return new RunLogContext(true);
    }

    /** The context of a run as a whole. */
    public static RunLogContext of(Object run) {
        return of(run, null, null, null);
    }

    private static void putIfPresent(String key, String value) {
        if (value != null) {
            MDC.put(key, value);
        }
    }

    @Override
    public void close() {
        if (put) {
            MDC.remove(RUN);
            MDC.remove(TRACE);
            MDC.remove(NODE);
            MDC.remove(TOKEN);
            MDC.remove(NODE_TYPE);
        }
    }
}
