package io.tokenflow.live;

import java.security.Principal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One page's subscription to one topic over one WebSocket. Views keep what they need to send only changes in
 * {@link #state()} (e.g. the rows a list shows); it lives as long as the connection, and a reconnecting page sends
 * what it last saw ({@link #after()}), so nothing here needs to outlive this instance.
 */
public final class LiveSubscriber {

    private final String topic;
    private final Map<String, String> params;
    private final Principal principal;
    private final String tenant;
    private final Map<String, Object> state = new ConcurrentHashMap<>();
    private volatile long after;

    LiveSubscriber(String topic, Map<String, String> params, Principal principal, String tenant, long after) {
        this.topic = topic;
        this.tenant = tenant;
        this.params = Map.copyOf(params);
        this.principal = principal;
        this.after = after;
    }

    public String topic() {
        return topic;
    }

    /** A parameter the page sent with its subscription (e.g. a filter), or {@code null}. */
    public String param(String name) {
        return params.get(name);
    }

    /** The signed-in person. */
    public Principal principal() {
        return principal;
    }

    /** The tenant the page acts in: views check and render under it ({@code CurrentTenant}). */
    public String tenant() {
        return tenant;
    }

    /** The last run event (seq) the page has seen; views move it forward as they push. */
    public long after() {
        return after;
    }

    public void seen(long seq) {
        this.after = seq;
    }

    /** What the view remembers for this subscriber between pushes. */
    public Map<String, Object> state() {
        return state;
    }
}
