package io.tokenflow.workers.runtime;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Consumer names unique per process and thread, {@code <hostname>-<pid>-<type>-<n>}: the pending entries of a
 * consumer group are kept per name, so two live threads must never share one. The counter is per JVM, so several
 * application contexts in one JVM (tests) still get distinct names.
 */
final class ConsumerNames {

    private static final Map<String, AtomicInteger> COUNTERS = new ConcurrentHashMap<>();
    private static final String PROCESS = hostname() + "-" + ProcessHandle.current().pid();

    private ConsumerNames() {
    }

    static String next(String type) {
        return PROCESS + "-" + type + "-" + COUNTERS.computeIfAbsent(type, t -> new AtomicInteger()).getAndIncrement();
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String fromEnvironment = System.getenv("HOSTNAME");
            return fromEnvironment == null || fromEnvironment.isBlank() ? "localhost" : fromEnvironment;
        }
    }
}
