package io.tokenflow.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * One atomic transition from {@code src/main/lua/}, with the shared prelude prepended. Runs by SHA ({@code EVALSHA})
 * and loads itself on {@code NOSCRIPT} (a restarted or failed-over Redis has an empty script cache). Each run is timed
 * as {@code tokenflow.lua.step} tagged with the script's name, from the call to Redis's reply (a pipelined step's time
 * includes its wait in the pipeline).
 */
public final class LuaScript {

    private final String name;
    private final String source;
    private final String sha;
    private final Timer timer;

    private LuaScript(String name, String source, String sha, Timer timer) {
        this.name = name;
        this.source = source;
        this.sha = sha;
        this.timer = timer;
    }

    public static LuaScript load(String name, RedisClusterCommands<String, String> commands, MeterRegistry meters) {
        String source = read("_prelude.lua") + "\n" + read(name + ".lua");
        Timer timer = Timer.builder("tokenflow.lua.step").tag("script", name)
                .description("Time of an atomic Lua step, from the call to Redis's reply").register(meters);
        return new LuaScript(name, source, commands.scriptLoad(source), timer);
    }

    /** Runs the script; its integer reply. */
    public long run(RedisClusterCommands<String, String> commands, List<String> keys, List<String> args) {
        String[] keyArray = keys.toArray(String[]::new);
        String[] argArray = args.toArray(String[]::new);
        long start = System.nanoTime();
        try {
            return commands.<Long>evalsha(sha, ScriptOutputType.INTEGER, keyArray, argArray);
        } catch (RedisNoScriptException e) {
            commands.scriptLoad(source);
            return commands.<Long>evalsha(sha, ScriptOutputType.INTEGER, keyArray, argArray);
        } finally {
            timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    /** Sends the script without waiting (pipelined); {@link #settle} turns a NOSCRIPT failure into a retry. */
    public RedisFuture<Long> send(RedisClusterAsyncCommands<String, String> commands, List<String> keys,
                                  List<String> args) {
        long start = System.nanoTime();
        RedisFuture<Long> sent = commands.evalsha(sha, ScriptOutputType.INTEGER, keys.toArray(String[]::new),
                args.toArray(String[]::new));
        sent.whenComplete((reply, failure) -> timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS));
        return sent;
    }

    /** The reply of a sent script; when Redis had lost the script, loads it and runs again synchronously. */
    public long settle(RedisFuture<Long> sent, RedisClusterCommands<String, String> commands, List<String> keys,
                       List<String> args) throws InterruptedException {
        try {
            return sent.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisNoScriptException) {
                return run(commands, keys, args);
            }
            throw new IllegalStateException("Expected script " + name + " to run, but it failed", e.getCause());
        }
    }

    public String name() {
        return name;
    }

    private static String read(String file) {
        try (InputStream in = LuaScript.class.getResourceAsStream("/lua/" + file)) {
            if (in == null) {
                throw new IllegalStateException("Expected the Lua script lua/" + file + " on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
