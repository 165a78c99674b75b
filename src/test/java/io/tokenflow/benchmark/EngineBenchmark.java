package io.tokenflow.benchmark;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.TokenflowApplication;
import io.tokenflow.coordinator.LocalCompletions;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.workers.function.WorkflowFunction;

/**
 * Drives the real engine in one JVM (coordinator, built-in workers running a no-op probe function, supervisor writing
 * the event log; Redis and PostgreSQL embedded unless SPRING_DATASOURCE_URL / SPRING_DATA_REDIS_HOST name servers)
 * and prints hops/s, runs/s, hop and run latency, event-log lag, Redis bytes per active run and the CPU time the JVM,
 * Redis and PostgreSQL spent per hop ({@link CpuUse}: the figure to compare versions by, as it drifts less than speed).
 * It first prints two figures of the machine ({@link MachineCalibration}) to compare machines by.
 *
 * <p>Each shape first runs {@code bench.warmup} times unmeasured, then on in rounds of {@code bench.warmup-round} runs
 * (5,000) until the JIT compiler used less than 5 % of the JVM's CPU in a round (for at most
 * {@code bench.warmup-seconds}, 240 by default), so that the figures describe a JVM whose hot code is compiled: with a
 * fixed 5,000 runs the compiler still took a quarter of the CPU during the measured chain load, and a cap of 20 rounds
 * still left it at 20-45 % of the CPU when the fan shape ran alone on a 2-core machine (its two compiler threads needed
 * about a minute of load to settle). Rounds of 1,000 runs (a third of a second of fan load) passed the check by
 * chance: the compiler then still used 12-17 % of the JVM's CPU in the measured fan load, 4-8 % after rounds of 5,000.
 *
 * <p>Run: {@code ./mvnw -q test-compile exec:java} (options: {@code -Dbench.runs=20000 -Dbench.window=400
 * -Dbench.warmup=5000 -Dbench.warmup-round=5000 -Dbench.warmup-seconds=240 -Dbench.starters=16 -Dbench.shards=2
 * -Dbench.shapes=latency,chain,fan,map}). The map shape ({@code map}, not in the default list) runs one run of 10,000
 * elements (100 at a time) and 100 runs of 100 elements (10 at a time each), and prints elements/s, CPU per element
 * and Redis's memory above its baseline per element in flight.
 *
 * <p>On a Redis Cluster: {@code -Dbench.cluster=127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003} (its nodes) runs the
 * shapes once per shard count of {@code -Dbench.cluster-shards} (1,2,4), each in an application of its own, reading
 * Redis's figures from every master, then prints the CPU per hop of each shape side by side.
 */
public final class EngineBenchmark {

    private static final int STARTERS = Integer.getInteger("bench.starters", 16);

    private final StartRun starting;
    private final Probe probe;
    private final RedisClusterCommands<String, String> redis;
    private final RedisKeys keys;

    private EngineBenchmark(ConfigurableApplicationContext app, Probe probe) {
        this.starting = app.getBean(StartRun.class);
        this.redis = app.getBean(RedisConnections.class).commands();
        this.keys = app.getBean(RedisKeys.class);
        this.probe = probe;
    }

    public static void main(String[] args) throws Exception {
        String machine = MachineCalibration.describe(); // before the engine starts, on a quiet machine
        String cluster = System.getProperty("bench.cluster");
        if (cluster == null) {
            run(machine, List.of(args), Integer.getInteger("bench.shards", 2));
        } else {
            Map<Integer, Map<String, Double>> byShards = new LinkedHashMap<>();
            for (String shards : System.getProperty("bench.cluster-shards", "1,2,4").split(",")) {
                List<String> settings = new ArrayList<>(List.of(args));
                settings.add("--spring.data.redis.cluster.nodes=" + cluster);
                byShards.put(Integer.parseInt(shards.trim()), run(machine, settings, Integer.parseInt(shards.trim())));
            }
            printByShards(byShards);
        }
        System.exit(0);
    }

    /** One application with the given shards through the shapes asked for; CPU per hop (µs) of each load shape. */
    private static Map<String, Double> run(String machine, List<String> args, int shards) throws Exception {
        int runs = Integer.getInteger("bench.runs", 20_000);
        int window = Integer.getInteger("bench.window", 400);
        int warmup = Integer.getInteger("bench.warmup", 5_000);
        Probe probe = new Probe();
        List<String> settings = new ArrayList<>(List.of("--server.port=0", "--tokenflow.embedded.ephemeral=true",
                "--logging.level.root=WARN", "--spring.main.banner-mode=off",
                "--tokenflow.supervisor.inactivity-timeout=30m",
                // finished runs leave Redis once persisted, so Redis's memory per active run counts active runs only
                // (kept a minute, as by default, the finished runs of the last minute counted too)
                "--tokenflow.supervisor.finished-run-retention=0s",
                // two shards by default: each has its own supervisor thread, so the event log is written on both cores
                "--tokenflow.redis.shards=" + shards,
                // built-in workers hand completions to the coordinator in-process (the default; false: the stream)
                "--tokenflow.coordinator.route-local-completions=" + System.getProperty("bench.local-completions",
                        "true")));
        settings.addAll(args);
        Map<String, Double> cpuPerHop = new LinkedHashMap<>();
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(TokenflowApplication.class)
                .initializers(context -> ((GenericApplicationContext) context)
                        .registerBean("benchProbe", WorkflowFunction.class, () -> probe))
                .run(settings.toArray(String[]::new))) {
            CreateWorkflow creating = app.getBean(CreateWorkflow.class);
            String chain = creating.create(Workflows.chain(10), "benchmark").id().toString();
            String diamond = creating.create(Workflows.fanOutFanIn(), "benchmark").id().toString();
            EngineBenchmark bench = new EngineBenchmark(app, probe);
            System.out.printf("Tokenflow engine benchmark: %d cores, %s, %d runs per load after %d unmeasured, %d "
                    + "runs in flight, %d threads starting runs, %d shards on %s, completions routed %s%n",
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), runs, warmup,
                    window, STARTERS, app.getBean(RedisKeys.class).shards(),
                    app.getBean(RedisConnections.class).clustered() ? "a Redis Cluster" : "one Redis",
                    app.getBean(LocalCompletions.class).enabled() ? "in-process" : "through the completions stream");
            System.out.println(machine);
            List<String> shapes = List.of(System.getProperty("bench.shapes", "latency,chain,fan").split(","));
            if (shapes.contains("latency") || shapes.contains("chain")) {
                bench.warmUp("chain of 10", chain, "n10", warmup, window);
            }
            if (shapes.contains("fan")) {
                bench.warmUp("fan-out/fan-in", diamond, "D", warmup, window);
            }
            bench.awaitEventLog();
            if (shapes.contains("latency")) {
                bench.hopLatency(chain, 300);
            }
            if (shapes.contains("chain")) {
                cpuPerHop.put("chain of 10", bench.load("chain of 10", chain, "n10", 10, runs, window));
            }
            if (shapes.contains("fan")) {
                cpuPerHop.put("fan-out/fan-in", bench.load("fan-out/fan-in", diamond, "D", 4, runs, window));
            }
            if (shapes.contains("map")) {
                String wide = creating.create(Workflows.map(100), "benchmark").id().toString();
                String narrow = creating.create(Workflows.map(10), "benchmark").id().toString();
                bench.mapLoad("map warm-up (unmeasured)", narrow, 200, 100, 10);
                bench.mapLoad("map, 1 run of 10,000 elements, 100 at a time", wide, 1, 10_000, 100);
                bench.mapLoad("map, 100 runs of 100 elements, 10 at a time each", narrow, 100, 100, 10);
            }
        }
        return cpuPerHop;
    }

    /** The cluster figures side by side: CPU per hop should not grow with the shard count. */
    private static void printByShards(Map<Integer, Map<String, Double>> byShards) {
        Set<String> shapes = new LinkedHashSet<>();
        byShards.values().forEach(figures -> shapes.addAll(figures.keySet()));
        int fewest = byShards.keySet().iterator().next();
        for (String shape : shapes) {
            double base = byShards.get(fewest).getOrDefault(shape, Double.NaN);
            String line = byShards.entrySet().stream().map(entry -> {
                double perHop = entry.getValue().getOrDefault(shape, Double.NaN);
                return String.format("%d shards %.0f µs (%+.0f %%)", entry.getKey(), perHop,
                        (perHop / base - 1) * 100);
            }).collect(Collectors.joining(", "));
            System.out.printf("Redis Cluster, %s: CPU per hop (JVM, Redis, PostgreSQL) by shards: %s%n", shape, line);
        }
    }

    /** Runs the shape unmeasured until its hot code is compiled (see the class comment). */
    private void warmUp(String name, String workflow, String terminal, int warmup, int window)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Integer.getInteger("bench.warmup-seconds", 240));
        drive(workflow, terminal, warmup, window);
        int round = Math.max(Integer.getInteger("bench.warmup-round", 5_000), window);
        int rounds = 0;
        double jitShare;
        do {
            CpuUse before = CpuUse.now(redis);
            drive(workflow, terminal, round, window);
            CpuUse used = CpuUse.now(redis).since(before);
            jitShare = used.jitNanos() / (double) used.jvmNanos();
            rounds++;
        } while (jitShare >= 0.05 && System.nanoTime() < deadline);
        System.out.printf("%s: warmed up with %d runs; the JIT compiler used %.1f %% of the JVM's CPU in the last %d%s%n",
                name, warmup + rounds * round, jitShare * 100, round, jitShare >= 0.05
                        ? " (still compiling when bench.warmup-seconds ran out: the figures include compilation)" : "");
    }

    /** One run in flight at a time: the time from one node executing to the next is one hop. */
    private void hopLatency(String workflow, int runs) throws InterruptedException {
        probe.reset("n10", 0);
        Stats hops = new Stats();
        for (int i = 0; i < runs; i++) {
            UUID run = start(workflow);
            probe.inFlight.acquire();
            for (int n = 1; n < 10; n++) {
                hops.add(probe.executedAt.get(run + "/n" + (n + 1)) - probe.executedAt.get(run + "/n" + n));
            }
        }
        awaitEventLog();
        System.out.println("hop latency, one run in flight (node n executes → node n+1 executes): " + hops.describe());
    }

    /** Measures {@code runs} runs of the shape; returns the CPU per hop (µs, JVM, Redis and PostgreSQL together). */
    private double load(String name, String workflow, String terminal, int hopsPerRun, int runs, int window)
            throws InterruptedException {
        long baseline = usedMemory();
        RedisServers.resetStats(redis);
        CpuUse cpuBefore = CpuUse.now(redis);
        long begin = System.nanoTime();
        Driven driven = drive(workflow, terminal, runs, window);
        long elapsed = System.nanoTime() - begin;
        long lag = eventsBacklog();
        long drained = awaitEventLog();
        CpuUse cpu = CpuUse.now(redis).since(cpuBefore).withRole("run starts", driven.startersCpu());
        Stats latency = new Stats();
        driven.startedAt().forEach((run, at) -> latency.add(probe.finishedAt.get(run.toString()) - at));
        List<Double> bytesPerRun = driven.usedMemory().stream().map(sample -> sample.active() == 0 ? 0
                : (sample.bytes() - baseline) / (double) sample.active()).toList();
        double seconds = elapsed / 1e9;
        System.out.printf("%s: %d runs in %.2f s → %.0f runs/s, %.0f hops/s; run latency (start → last node) %s%n",
                name, runs, seconds, runs / seconds, runs * (double) hopsPerRun / seconds, latency.describe());
        System.out.printf("%s: event-log lag when load stopped %d entries, back to 0 after %.2f s; Redis bytes per "
                + "active run ≈ %s%n", name, lag, drained / 1e9, median(bytesPerRun));
        System.out.printf("%s: %s; per run %.0f µs (load and event-log drain, run starts included)%n", name,
                cpu.per((long) runs * hopsPerRun, "hop"), (cpu.jvmNanos() + cpu.redisNanos()
                        + Math.max(cpu.postgresNanos(), 0)) / 1e3 / runs);
        System.out.printf("%s: %s%n", name, cpu.jvmRolesPer((long) runs * hopsPerRun));
        System.out.printf("%s: Redis per hop, top commands (those a Lua step calls are counted in it and on their "
                + "own): %s%n",
                name, RedisCommandStats.top(RedisServers.info(redis, "commandstats"), (long) runs * hopsPerRun, 10));
        return (cpu.jvmNanos() + cpu.redisNanos() + Math.max(cpu.postgresNanos(), 0)) / 1e3 / runs / hopsPerRun;
    }

    /** {@code runs} runs of a map over {@code elements} elements, all in flight at once. */
    private void mapLoad(String name, String workflow, int runs, int elements, int concurrency)
            throws InterruptedException {
        awaitEventLog();
        long baseline = usedMemory();
        RedisServers.resetStats(redis);
        tools.jackson.databind.node.ObjectNode inputs = tools.jackson.databind.node.JsonNodeFactory.instance
                .objectNode();
        tools.jackson.databind.node.ArrayNode items = inputs.putArray("items");
        for (int i = 0; i < elements; i++) {
            items.add(i);
        }
        probe.reset("done", runs);
        probe.inFlight.acquire(runs);
        CpuUse cpuBefore = CpuUse.now(redis);
        long begin = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            starting.start(new StartRunCommand(workflow, null, 1, inputs, null), "benchmark");
        }
        List<Long> memory = new ArrayList<>();
        while (!probe.inFlight.tryAcquire(runs, 100, TimeUnit.MILLISECONDS)) {
            memory.add(usedMemory() - baseline);
        }
        long elapsed = System.nanoTime() - begin;
        long drained = awaitEventLog();
        CpuUse cpu = CpuUse.now(redis).since(cpuBefore);
        long total = (long) runs * elements;
        double inFlight = (double) Math.min(runs * concurrency, total);
        double seconds = elapsed / 1e9;
        System.out.printf("%s: %,d elements in %.2f s → %,.0f elements/s; event log drained %.2f s later; Redis "
                        + "memory above its baseline per element in flight (%,.0f) ≈ %s%n", name, total, seconds,
                total / seconds, drained / 1e9, inFlight,
                median(memory.stream().map(bytes -> bytes / inFlight).toList()));
        System.out.printf("%s: %s%n", name, cpu.per(total, "element"));
    }

    /**
     * Starts {@code runs} runs, keeping {@code window} in flight, and returns once the last one's terminal node has
     * executed: when each run started, and Redis's memory use with the active runs every 2,000 starts.
     */
    private Driven drive(String workflow, String terminal, int runs, int window) throws InterruptedException {
        probe.reset(terminal, window);
        Map<UUID, Long> startedAt = new ConcurrentHashMap<>(runs * 2);
        List<MemorySample> memory = new CopyOnWriteArrayList<>();
        AtomicInteger toStart = new AtomicInteger(runs);
        // clients start runs concurrently (as HTTP requests would); each starter keeps the window full
        ExecutorService starters = Executors.newFixedThreadPool(STARTERS);
        AtomicLong startersCpu = new AtomicLong();
        for (int s = 0; s < STARTERS; s++) {
            starters.execute(() -> {
                for (int i = toStart.decrementAndGet(); i >= 0; i = toStart.decrementAndGet()) {
                    probe.inFlight.acquireUninterruptibly();
                    startedAt.put(start(workflow), System.nanoTime());
                    if (i % 2_000 == 1_000) {
                        memory.add(new MemorySample(activeRuns(), usedMemory()));
                    }
                }
                startersCpu.addAndGet(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
            });
        }
        starters.shutdown();
        starters.awaitTermination(1, TimeUnit.HOURS);
        probe.inFlight.acquire(window);
        return new Driven(startedAt, memory, startersCpu.get());
    }

    /** @param startersCpu CPU time of the threads that started the runs (ended by now, so not in a CpuUse reading) */
    private record Driven(Map<UUID, Long> startedAt, List<MemorySample> usedMemory, long startersCpu) {
    }

    private record MemorySample(long active, long bytes) {
    }

    private UUID start(String workflow) {
        return starting.start(new StartRunCommand(workflow, null, 1, null, null), "benchmark").id();
    }

    /** Waits until the supervisor has drained the events stream; the time it took, in nanoseconds. */
    private long awaitEventLog() throws InterruptedException {
        long begin = System.nanoTime();
        while (eventsBacklog() > 0) {
            Thread.sleep(20);
        }
        return System.nanoTime() - begin;
    }

    /** Entries of the events streams (all shards) the supervisor has not written to PostgreSQL yet. */
    private long eventsBacklog() {
        long entries = 0;
        for (int shard = 0; shard < keys.shards(); shard++) {
            entries += redis.xlen(keys.eventsStream(shard));
        }
        return entries;
    }

    private long activeRuns() {
        long runs = 0;
        for (int shard = 0; shard < keys.shards(); shard++) {
            runs += redis.zcard(keys.activeRuns(shard));
        }
        return runs;
    }

    private long usedMemory() {
        return RedisServers.sum(redis, "memory", "used_memory");
    }

    private static String median(List<Double> values) {
        if (values.isEmpty()) {
            return "n/a";
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return String.format("%.0f bytes", sorted.get(sorted.size() / 2));
    }
}
