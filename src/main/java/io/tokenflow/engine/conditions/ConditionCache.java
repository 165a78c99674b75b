package io.tokenflow.engine.conditions;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** A bounded LRU cache of what a condition type compiled, keyed by the text it was compiled from. Thread-safe. */
final class ConditionCache<V> {

    private final Map<String, V> entries;

    ConditionCache(int size) {
        this.entries = new LinkedHashMap<>(Math.min(size, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > size;
            }
        };
    }

    /** The cached value, or the one {@code compile} makes (outside the lock; a race compiles twice, harmlessly). */
    V get(String key, Function<String, V> compile) {
        V value;
        synchronized (entries) {
            value = entries.get(key);
        }
        if (value == null) {
            value = compile.apply(key);
            synchronized (entries) {
                entries.put(key, value);
            }
        }
        return value;
    }
}
