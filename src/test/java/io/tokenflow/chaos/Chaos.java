package io.tokenflow.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.tokenflow.support.TcpProxy;

/**
 * The chaos suite: real processes (the whole application in child JVMs, a Redis server of its own with an append-only
 * file, PostgreSQL behind a TCP proxy it can cut), a load of runs started over the REST API, one fault per scenario,
 * and what became of every run, read from PostgreSQL:
 * <ul>
 *   <li>(a) an app instance {@code kill -9}ed every 15 s (two instances, in turn) while the runs execute;</li>
 *   <li>(b) Redis {@code kill -9}ed and restarted from its append-only file mid-load;</li>
 *   <li>(c) Redis flushed mid-load;</li>
 *   <li>(d) PostgreSQL unreachable for {@code chaos.outage-seconds} (60) mid-load, starts and reads going on;</li>
 *   <li>(e) one poisoned events-stream entry (a node output with a NUL character, appended as a bug might) among
 *   the runs;</li>
 *   <li>(f) Redis {@code kill -9}ed after its append-only file lost its last second;</li>
 *   <li>(g) a start retried with the same idempotency key after its Redis key expired.</li>
 * </ul>
 * Per scenario it prints: runs started (answered 201), completed, failed with a reason, stuck in {@code RUNNING},
 * vanished (answered 201, unknown to PostgreSQL), node executions completed twice, runs with gaps in their event log,
 * and how long after the fault every run had ended.
 *
 * <p>Run: {@code ./mvnw -q test-compile exec:java -Dexec.mainClass=io.tokenflow.chaos.Chaos} with
 * {@code -Dchaos.scenarios=a,b,c,d,e,f,g,soak -Dchaos.runs=1000 -Dchaos.kill-runs=2000 -Dchaos.outage-seconds=60
 * -Dchaos.pg=jdbc:postgresql://127.0.0.1:5432/postgres -Dchaos.pg-user=postgres}: a PostgreSQL server it may create
 * databases on (one per scenario, dropped after); {@code -Dchaos.soak-rate=40 -Dchaos.soak-seconds=600} for the soak.
 * {@code ChaosE2ETests} runs a small form of (a), (c) and (e) in {@code ./mvnw verify}.
 */
public final class Chaos {

    /** B and C sleep this long on four function-worker threads: a run takes work the faults can land in. */
    static final int SLEEP_MS = 20;

    private Chaos() {
    }

    public static void main(String[] args) throws Exception {
        String pg = System.getProperty("chaos.pg", "jdbc:postgresql://127.0.0.1:5432/postgres");
        String user = System.getProperty("chaos.pg-user", "postgres");
        int runs = Integer.getInteger("chaos.runs", 1000);
        System.out.println(Figures.HEADER);
        for (String scenario : System.getProperty("chaos.scenarios", "a,b,c,d,e,f,g").split(",")) {
            Figures figures = switch (scenario.trim()) {
                case "a" -> killApps(pg, user, Integer.getInteger("chaos.kill-runs", 2000), Duration.ofSeconds(15));
                case "b" -> redisFault(pg, user, runs, "b", RedisFault.KILL);
                case "c" -> redisFault(pg, user, runs, "c", RedisFault.FLUSH);
                case "d" -> postgresOutage(pg, user, runs, Duration.ofSeconds(Integer.getInteger(
                        "chaos.outage-seconds", 60)));
                case "f" -> redisFault(pg, user, runs, "f", RedisFault.KILL_AFTER_CUTTING_THE_LAST_SECOND);
                case "e" -> poisonedEntry(pg, user, runs);
                case "g" -> expiredIdempotencyKey(pg, user, runs);
                case "soak" -> soak(pg, user, Integer.getInteger("chaos.soak-rate", 40),
                        Duration.ofSeconds(Integer.getInteger("chaos.soak-seconds", 600)));
                default -> throw new IllegalArgumentException("Expected scenarios among a,b,c,d,e,f,g,soak, but found "
                        + scenario);
            };
            System.out.println(figures.line());
        }
        System.exit(0);
    }

    /** (a): {@code runs} started while an instance is killed every {@code every}, the two in turn. */
    public static Figures killApps(String pg, String user, int runs, Duration every) throws Exception {
        try (Rig rig = new Rig(pg, user, "a", 2)) {
            String workflow = rig.fanWorkflow();
            Load load = rig.startLoad(workflow, runs, 4);
            int kills = 0;
            long faultAt = System.nanoTime();
            while (!load.done() || rig.running(load.ids()) > 0) {
                pause(every.toMillis());
                if (!load.done() || rig.running(load.ids()) > 0) {
                    AppProcess victim = rig.apps.get(kills % rig.apps.size());
                    victim.kill();
                    kills++;
                    faultAt = System.nanoTime();
                    victim.start();
                }
                if (kills > 40) {
                    break;
                }
            }
            Duration settled = rig.settle(load.ids(), Duration.ofMinutes(5), faultAt);
            return rig.figures("a: app kill -9 every " + every.toSeconds() + " s", load.ids(), settled,
                    kills + " kills");
        }
    }

    public enum RedisFault { KILL, FLUSH, KILL_AFTER_CUTTING_THE_LAST_SECOND }

    /** (b), (c), (f): the fault once a third of the runs completed. */
    public static Figures redisFault(String pg, String user, int runs, String name, RedisFault fault) throws Exception {
        try (Rig rig = new Rig(pg, user, name, 1)) {
            String workflow = rig.fanWorkflow();
            Load load = rig.startLoad(workflow, runs, 4);
            rig.awaitCompleted(load, runs / 3, Duration.ofMinutes(3));
            long faultAt = System.nanoTime();
            String note = switch (fault) {
                case KILL -> {
                    rig.redis.kill();
                    rig.redis.start();
                    yield "Redis killed and restarted from its AOF";
                }
                case FLUSH -> {
                    rig.redis.commands().flushall();
                    yield "FLUSHALL";
                }
                case KILL_AFTER_CUTTING_THE_LAST_SECOND -> {
                    long cut = rig.redis.killAndCutLastSecond();
                    rig.redis.start();
                    yield "Redis killed, " + cut + " bytes (its last second) cut from its AOF, restarted";
                }
            };
            load.await(Duration.ofMinutes(3));
            Duration settled = rig.settle(load.ids(), Duration.ofMinutes(4), faultAt);
            return rig.figures(name + ": " + note.toLowerCase(java.util.Locale.ROOT).replace("flushall",
                    "Redis flushed"), load.ids(), settled, note);
        }
    }

    /** (d): PostgreSQL cut off mid-load for {@code outage}; starts and reads go on, and their answers are counted. */
    static Figures postgresOutage(String pg, String user, int runs, Duration outage) throws Exception {
        try (Rig rig = new Rig(pg, user, "d", 1)) {
            String workflow = rig.fanWorkflow();
            Load load = rig.startLoad(workflow, runs, 4);
            rig.awaitCompleted(load, runs / 3, Duration.ofMinutes(3));
            load.await(Duration.ofMinutes(3));
            rig.api.resetAnswers();
            rig.proxy.cut();
            long cutAt = System.nanoTime();
            List<UUID> during = Collections.synchronizedList(new ArrayList<>());
            int startsTried = 0;
            while (System.nanoTime() - cutAt < outage.toNanos()) {
                startsTried++;
                try {
                    during.add(rig.api.start(workflow, "{}", UUID.randomUUID().toString(), Duration.ofSeconds(1)));
                } catch (IllegalStateException refused) {
                    // counted in the answers
                }
                rig.api.read(load.ids().get(startsTried % load.ids().size()));
                pause(500);
            }
            Map<Integer, Integer> answers = rig.api.answers();
            rig.proxy.restore();
            long restoredAt = System.nanoTime();
            List<UUID> all = new ArrayList<>(load.ids());
            all.addAll(during);
            Duration caughtUp = rig.settle(all, Duration.ofMinutes(4), restoredAt);
            return rig.figures("d: PostgreSQL cut for " + outage.toSeconds() + " s", all, caughtUp,
                    "API answers during the outage " + answers + "; " + during.size() + " of " + startsTried
                            + " starts accepted during it; time = log caught up after PostgreSQL came back");
        }
    }

    /**
     * (e): a run waits for an approval while {@code runs} others run; a node output with a NUL character is appended
     * to its events stream by hand, numbered from its meta as a step would. Only that run may fail.
     */
    public static Figures poisonedEntry(String pg, String user, int runs) throws Exception {
        try (Rig rig = new Rig(pg, user, "e", 1)) {
            String approval = rig.api.workflow("""
                    {"name": "chaos-approval-%s", "nodes": [
                      {"id": "ask", "type": "human", "human": {"approvers": ["chaos"], "title": "Go?"}},
                      {"id": "done", "type": "function", "config": {"function": "echo"}}],
                     "edges": [{"from": "ask", "to": "done"}]}""".formatted(UUID.randomUUID().toString()
                    .substring(0, 8)));
            UUID victim = rig.api.start(approval, "{}", UUID.randomUUID().toString(), Duration.ofMinutes(1));
            long until = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (rig.number("select count(*) from approvals where run_id = any(?)", List.of(victim)) == 0
                    && System.nanoTime() < until) {
                pause(100);
            }
            Load load = rig.startLoad(rig.fanWorkflow(), runs - 1, 4);
            rig.awaitCompleted(load, runs / 3, Duration.ofMinutes(3));
            long faultAt = System.nanoTime();
            long seq = rig.redis.commands().hincrby("wf.run:{0}:" + victim + ":meta", "seq", 1);
            long now = System.currentTimeMillis();
            rig.redis.commands().xadd("wf.events:{0}", Map.of("run", victim.toString(), "events", "[{\"seq\":" + seq
                    + ",\"type\":\"node.completed\",\"at\":" + now + ",\"node\":\"ask\",\"token\":\"poison\","
                    + "\"data\":{\"iteration\":0,\"output\":{\"text\":\"a\\u0000b\"},\"worker\":\"hand\","
                    + "\"started_at\":" + now + ",\"terminal\":true}}]"));
            load.await(Duration.ofMinutes(3));
            List<UUID> all = new ArrayList<>(load.ids());
            all.add(victim);
            Duration settled = rig.settle(all, Duration.ofMinutes(3), faultAt);
            long quarantined = rig.number("select count(*) from quarantined_entries where run_id = any(?)",
                    List.of(victim));
            long victimFailed = rig.number("select count(*) from runs where id = any(?) and status = 'FAILED' "
                    + "and error like '%quarantine%'", List.of(victim));
            long othersCompleted = rig.count("COMPLETED", load.ids());
            return rig.figures("e: one poisoned entry", all, settled, "the poisoned run " + (victimFailed == 1
                    ? "failed with the quarantine named" : "did NOT fail as expected") + ", " + quarantined
                    + " entry in the quarantine; " + othersCompleted + " of " + load.ids().size() + " others completed");
        }
    }

    /** (g): a start retried with its idempotency key after the key's Redis copy expired (deleted here). */
    static Figures expiredIdempotencyKey(String pg, String user, int runs) throws Exception {
        try (Rig rig = new Rig(pg, user, "g", 1)) {
            String workflow = rig.fanWorkflow();
            List<UUID> ids = new ArrayList<>();
            int sameRun = 0;
            int keys = Math.max(1, runs / 10);
            for (int i = 0; i < keys; i++) {
                String key = "order-" + UUID.randomUUID();
                UUID first = rig.api.start(workflow, "{}", key, Duration.ofMinutes(1));
                ids.add(first);
                rig.awaitEnded(first, Duration.ofMinutes(1));
                rig.redis.commands().keys("wf.idem:*" + key).forEach(k -> rig.redis.commands().del(k));
                UUID again = rig.api.start(workflow, "{}", key, Duration.ofMinutes(1));
                sameRun += again.equals(first) ? 1 : 0;
            }
            Load after = rig.startLoad(workflow, runs, 4);
            after.await(Duration.ofMinutes(3));
            ids.addAll(after.ids());
            Duration settled = rig.settle(ids, Duration.ofMinutes(3), System.nanoTime());
            return rig.figures("g: start retried after its key expired", ids, settled, sameRun + " of " + keys
                    + " retried starts answered their first run; the log kept flowing for " + runs + " runs after");
        }
    }

    /**
     * Soak: {@code rate} runs a second for {@code length}; every 30 s the app's heap after a full GC, Redis's memory
     * and key count, and PostgreSQL's rows are printed; at the end, the Redis keys left of runs that ended.
     */
    static Figures soak(String pg, String user, int rate, Duration length) throws Exception {
        try (Rig rig = new Rig(pg, user, "soak", 1, "--tokenflow.supervisor.finished-run-retention=5s")) {
            String workflow = rig.fanWorkflow();
            List<UUID> ids = Collections.synchronizedList(new ArrayList<>());
            ExecutorService starters = Executors.newFixedThreadPool(16);
            long began = System.nanoTime();
            long nextSample = began;
            System.out.println("soak: minute | heap after GC MB | Redis used MB | Redis keys | run keys | runs rows | "
                    + "event_log rows | node_executions rows");
            for (long second = 0; System.nanoTime() - began < length.toNanos(); second++) {
                for (int i = 0; i < rate; i++) {
                    starters.submit(() -> ids.add(rig.api.start(workflow, "{\"n\": 1}", UUID.randomUUID().toString(),
                            Duration.ofMinutes(1))));
                }
                if (System.nanoTime() >= nextSample) {
                    nextSample += Duration.ofSeconds(30).toNanos();
                    System.out.println(rig.sample(Duration.ofNanos(System.nanoTime() - began)));
                }
                long wait = began + Duration.ofSeconds(second + 1).toNanos() - System.nanoTime();
                if (wait > 0) {
                    pause(wait / 1_000_000);
                }
            }
            starters.shutdown();
            // starts the starters are behind with are dropped: a run started after the last sample would be counted
            // as a finished run's keys left in Redis
            int dropped = starters.shutdownNow().size();
            starters.awaitTermination(2, TimeUnit.MINUTES);
            System.out.println("soak: " + ids.size() + " runs started, " + dropped + " starts the starting "
                    + "threads were behind with left out");
            Duration settled = rig.settle(ids, Duration.ofMinutes(3), System.nanoTime());
            pause(15_000);
            System.out.println(rig.sample(Duration.ofNanos(System.nanoTime() - began)));
            List<String> runKeys = rig.redis.commands().keys("wf.run:*");
            long left = runKeys.stream().map(key -> key.split(":")[2]).distinct().count();
            Map<String, Long> bySuffix = runKeys.stream().collect(java.util.stream.Collectors.groupingBy(
                    key -> key.substring(key.lastIndexOf(':') + 1), java.util.TreeMap::new,
                    java.util.stream.Collectors.counting()));
            long idempotency = rig.redis.commands().keys("wf.idem:*").size();
            System.out.println("soak: keys by kind: " + rig.redis.commands().keys("*").stream().collect(
                    java.util.stream.Collectors.groupingBy(key -> key.replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "<run>")
                            .replaceAll("wf\\.idem:.*", "wf.idem:<key>"), java.util.TreeMap::new,
                            java.util.stream.Collectors.counting())));
            runKeys.stream().map(key -> key.split(":")[2]).distinct().limit(5).forEach(run -> System.out.println(
                    "soak: left " + run + ": row " + rig.rowStatus(run) + "; " + runKeys.stream()
                            .filter(key -> key.contains(run)).map(key -> key.substring(key.lastIndexOf(':') + 1)
                                    + " ttl " + rig.redis.commands().pttl(key) + " ms").toList()
                            + "; meta " + runKeys.stream().filter(key -> key.contains(run) && key.endsWith(":meta"))
                                    .findFirst().map(key -> rig.redis.commands().hgetall(key)).orElse(Map.of())));
            return rig.figures("soak: " + rate + " runs/s for " + length.toSeconds() + " s", ids, settled,
                    left + " runs with Redis keys left 15 s after the last ended (finished-run retention 5 s): "
                            + bySuffix + ", " + leftLater(rig) + " 30 s later; " + idempotency
                            + " idempotency keys (kept 24 h)");
        }
    }

    /** How many runs still have Redis keys after another 30 s. */
    private static long leftLater(Rig rig) {
        pause(30_000);
        return rig.redis.commands().keys("wf.run:*").stream().map(key -> key.split(":")[2]).distinct().count();
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What became of a scenario's runs. */
    public record Figures(String scenario, int started, long completed, long failedWithReason, long failedWithout,
                   long stuck, long vanished, long duplicated, long gaps, Duration settled, String note) {

        public static final String HEADER = "scenario | started | completed | failed (reason) | stuck running | vanished | "
                + "node executions twice | runs with log gaps | all ended after the fault | note";

        public String line() {
            return String.join(" | ", scenario, Integer.toString(started), Long.toString(completed),
                    failedWithReason + (failedWithout > 0 ? " (+" + failedWithout + " without)" : ""),
                    Long.toString(stuck), Long.toString(vanished), Long.toString(duplicated), Long.toString(gaps),
                    settled == null ? "not within the limit" : String.format("%.1f s", settled.toMillis() / 1000.0),
                    note);
        }
    }

    /** A load of runs started in the background by a few API clients. */
    record Load(List<UUID> ids, ExecutorService starters, AtomicInteger left) {

        boolean done() {
            return left.get() == 0;
        }

        void await(Duration atMost) throws InterruptedException {
            starters.shutdown();
            starters.awaitTermination(atMost.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One scenario's processes and database. */
    static final class Rig implements AutoCloseable {

        final RedisProcess redis;
        final TcpProxy proxy;
        final List<AppProcess> apps = new ArrayList<>();
        final ChaosApi api;
        private final String adminUrl;
        private final String user;
        private final String database;
        private final Connection sql;
        private final Path directory;

        Rig(String adminUrl, String user, String name, int instances, String... settings) throws Exception {
            this.adminUrl = adminUrl;
            this.user = user;
            this.database = "tokenflow_chaos_" + name + "_" + UUID.randomUUID().toString().substring(0, 8);
            try (Connection admin = DriverManager.getConnection(adminUrl, user, "");
                 Statement statement = admin.createStatement()) {
                statement.execute("create database " + database);
            }
            java.net.URI server = java.net.URI.create(adminUrl.substring("jdbc:".length()));
            String host = server.getHost();
            int port = server.getPort() < 0 ? 5432 : server.getPort();
            this.sql = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + database, user, "");
            this.proxy = TcpProxy.to(host, port);
            this.directory = Files.createTempDirectory("tokenflow-chaos-" + name);
            this.redis = new RedisProcess(directory.resolve("redis"));
            for (int i = 0; i < instances; i++) {
                List<String> all = new ArrayList<>(List.of(
                        "--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + database,
                        "--spring.datasource.username=" + user, "--spring.datasource.password=",
                        "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port(),
                        "--tokenflow.workers.concurrency.function=4"));
                all.addAll(List.of(settings));
                apps.add(new AppProcess(name + "-" + i, all));
            }
            for (AppProcess app : apps) {
                app.start();
            }
            this.api = new ChaosApi(() -> apps.stream().filter(AppProcess::alive).map(AppProcess::port).toList());
        }

        String fanWorkflow() {
            return api.workflow("""
                    {"name": "chaos-%s", "nodes": [
                      {"id": "A", "type": "function", "config": {"function": "echo"}},
                      {"id": "B", "type": "function", "config": {"function": "sleep", "args": {"ms": %d}}},
                      {"id": "C", "type": "function", "config": {"function": "sleep", "args": {"ms": %d}}},
                      {"id": "D", "type": "function", "config": {"function": "echo"}, "wait_for_all": true}],
                     "edges": [{"from": "A", "to": "B"}, {"from": "A", "to": "C"}, {"from": "B", "to": "D"},
                               {"from": "C", "to": "D"}]}""".formatted(UUID.randomUUID().toString().substring(0, 8),
                    SLEEP_MS, SLEEP_MS));
        }

        Load startLoad(String workflow, int runs, int clients) {
            List<UUID> ids = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger left = new AtomicInteger(runs);
            ExecutorService starters = Executors.newFixedThreadPool(clients);
            for (int i = 0; i < runs; i++) {
                starters.submit(() -> {
                    ids.add(api.start(workflow, "{\"n\": 1}", UUID.randomUUID().toString(), Duration.ofMinutes(5)));
                    left.decrementAndGet();
                });
            }
            return new Load(ids, starters, left);
        }

        void awaitCompleted(Load load, int count, Duration atMost) throws SQLException {
            long until = System.nanoTime() + atMost.toNanos();
            while (System.nanoTime() < until && count("COMPLETED", snapshot(load.ids())) < count) {
                pause(100);
            }
        }

        void awaitEnded(UUID run, Duration atMost) throws SQLException {
            long until = System.nanoTime() + atMost.toNanos();
            while (System.nanoTime() < until && (count("COMPLETED", List.of(run)) + count("FAILED", List.of(run))) == 0) {
                pause(100);
            }
        }

        long running(List<UUID> runs) throws SQLException {
            List<UUID> ids = snapshot(runs);
            return ids.size() - count("COMPLETED", ids) - count("FAILED", ids) - count("CANCELLED", ids);
        }

        /**
         * Waits until no run is {@code RUNNING} in PostgreSQL and the runs it has no row for (vanished, or not
         * written yet) stayed as many for 15 s; how long after {@code since} the last run ended, or null past the
         * limit.
         */
        Duration settle(List<UUID> runs, Duration atMost, long since) throws SQLException {
            long until = System.nanoTime() + atMost.toNanos();
            long endedAt = 0;
            long missing = -1;
            while (System.nanoTime() < until) {
                List<UUID> ids = snapshot(runs);
                long rows = number("select count(*) from runs where id = any(?)", ids);
                boolean noneRunning = count("RUNNING", ids) == 0;
                if (noneRunning && rows == ids.size()) {
                    return Duration.ofNanos(System.nanoTime() - since);
                }
                if (!noneRunning || ids.size() - rows != missing) {
                    endedAt = System.nanoTime();
                    missing = ids.size() - rows;
                } else if (System.nanoTime() - endedAt > Duration.ofSeconds(15).toNanos()) {
                    return Duration.ofNanos(endedAt - since);
                }
                pause(250);
            }
            return null;
        }

        Figures figures(String scenario, List<UUID> runs, Duration settled, String note) throws SQLException {
            List<UUID> ids = snapshot(runs);
            long rows = number("select count(*) from runs where id = any(?)", ids);
            return new Figures(scenario, ids.size(), count("COMPLETED", ids),
                    number("select count(*) from runs where id = any(?) and status = 'FAILED' and error is not null",
                            ids),
                    number("select count(*) from runs where id = any(?) and status = 'FAILED' and error is null", ids),
                    count("RUNNING", ids), ids.size() - rows,
                    number("select count(*) from (select 1 from event_log where run_id = any(?) and event_type = "
                            + "'node.completed' group by run_id, node_id, data->>'iteration' having count(*) > 1) d",
                            ids),
                    number("select count(*) from (select run_id from event_log where run_id = any(?) group by run_id "
                            + "having max(seq) <> count(*)) g", ids), settled, note);
        }

        /** One soak sample line: heap after a full GC of the first app, Redis memory and keys, PostgreSQL rows. */
        String sample(Duration since) throws Exception {
            String info = redis.commands().info("memory");
            long used = Long.parseLong(info.lines().filter(line -> line.startsWith("used_memory:")).findFirst()
                    .orElseThrow().substring("used_memory:".length()).trim());
            long runKeys = redis.commands().keys("wf.run:*").size();
            return String.format("soak: %.1f | %d | %.1f | %d | %d | %d | %d | %d", since.toSeconds() / 60.0,
                    apps.get(0).heapAfterGcMegabytes(), used / 1048576.0, redis.commands().dbsize(), runKeys,
                    rows("runs"), rows("event_log"), rows("node_executions"));
        }

        /** The status of the run's row, or "none". */
        String rowStatus(String run) {
            try (PreparedStatement statement = sql.prepareStatement("select status from runs where id = ?::uuid")) {
                statement.setString(1, run);
                try (ResultSet result = statement.executeQuery()) {
                    return result.next() ? result.getString(1) : "none";
                }
            } catch (SQLException e) {
                return "unreadable (" + e.getMessage() + ")";
            }
        }

        private long rows(String table) throws SQLException {
            try (Statement statement = sql.createStatement();
                 ResultSet result = statement.executeQuery("select count(*) from " + table)) {
                result.next();
                return result.getLong(1);
            }
        }

        private static List<UUID> snapshot(List<UUID> runs) {
            synchronized (runs) {
                return new ArrayList<>(runs);
            }
        }

        long count(String status, List<UUID> ids) throws SQLException {
            return number("select count(*) from runs where id = any(?) and status = '" + status + "'", ids);
        }

        long number(String query, List<UUID> ids) throws SQLException {
            try (PreparedStatement statement = sql.prepareStatement(query)) {
                Array array = sql.createArrayOf("uuid", ids.toArray());
                statement.setArray(1, array);
                try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    return result.getLong(1);
                }
            }
        }

        @Override
        public void close() throws Exception {
            apps.forEach(AppProcess::kill);
            redis.close();
            proxy.cut();
            sql.close();
            try (Connection admin = DriverManager.getConnection(adminUrl, user, "");
                 Statement statement = admin.createStatement()) {
                statement.execute("drop database if exists " + database + " with (force)");
            }
        }
    }
}
