package io.tokenflow.benchmark;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import io.tokenflow.TokenflowApplication;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import tools.jackson.databind.json.JsonMapper;

/**
 * Measures the live views on the real engine in one JVM (embedded Redis and PostgreSQL) and prints the figures:
 * (1) engine event → browser update latency (p50/p99) with 100 runs in flight of a 10-node chain (each node sleeps
 * 150 ms), about 1,000 events/s, each run watched by its own WebSocket client signed in like a browser, latency
 * being the time from an event's {@code at} to the arrival of the first pushed fragment that shows it; (2) a run of
 * 100,000 events (a loop of 33,332 passes written straight into {@code event_log}): page load and time-travel times.
 *
 * <p>Run (the exec plugin is bound to the engine benchmark):
 * {@code ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * && java -cp target/classes:target/test-classes:$(cat target/cp.txt) io.tokenflow.benchmark.LiveBenchmark}
 * (options: {@code -Dbench.runs=100 -Dbench.seconds=20 -Dbench.sleep=150 -Dbench.browser-pages=1,4
 * -Dbench.browser-chain=40 -Dbench.warmup-seconds=75 -Dbench.phases=engine,sockets,browser,long -Dbench.trace=true},
 * the last for 5 s of Chromium's trace of the browser phase summed up per kind of thread); a synthetic
 * load of 1,000 events/s follows (events appended straight to the stream, no engine work; measured after
 * {@code bench.warmup-seconds} of it, with the browser's pages open before it starts), during which real Chromium
 * pages also watch runs (of a {@code bench.browser-chain}-node chain, so each page draws many events of one run) and
 * time each event to the frame that shows it ({@link BrowserWatchers}).
 */
public final class LiveBenchmark {

    private static final Pattern TIMELINE = Pattern.compile("data-seq=\"(\\d+)\" data-at=\"(\\d+)\"");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int IN_FLIGHT = Integer.getInteger("bench.runs", 100);
    private static final int CHAIN = 10;
    private static final int SLEEP_MS = Integer.getInteger("bench.sleep", 150);
    private static final Duration MEASURE = Duration.ofSeconds(Long.getLong("bench.seconds", 20));
    /**
     * How many Chromium pages watch at once, one browser phase per figure: one person watching a run, then four pages
     * sharing the machine's two cores with the server.
     */
    private static final List<Integer> BROWSER_PAGES = java.util.Arrays.stream(System.getProperty("bench.browser-pages",
            "1,4").split(",")).map(String::trim).map(Integer::valueOf).toList();
    /** Which parts run: engine, sockets (synthetic, a WebSocket per run), browser (synthetic, Chromium), long. */
    private static final List<String> PHASES = List.of(System.getProperty("bench.phases",
            "engine,sockets,browser,long").split(","));
    /** Nodes of the chain the browser phase's runs follow: long runs, so a page draws many events of each. */
    private static final int BROWSER_CHAIN = Integer.getInteger("bench.browser-chain", 40);
    /**
     * How long the synthetic phases run their load before they measure it: a server just started spends a core on
     * compiling its hot code for its first minute, which no warm server does (measured: the C2 compiler threads took
     * 66% of a core 25-40 s into the load, 9% after 90 s).
     */
    private static final Duration WARMUP = Duration.ofSeconds(Long.getLong("bench.warmup-seconds", 75));

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private final String base;
    private final String cookie;
    private final List<Long> latencies = new CopyOnWriteArrayList<>();

    private LiveBenchmark(String base) throws Exception {
        this.base = base;
        this.cookie = signIn();
    }

    public static void main(String[] args) throws Exception {
        List<String> known = List.of("engine", "sockets", "browser", "long");
        if (BROWSER_PAGES.stream().anyMatch(pages -> pages < 1)) {
            throw new IllegalArgumentException("Expected bench.browser-pages to list page counts of at least 1, but "
                    + "found " + BROWSER_PAGES);
        }
        if (!known.containsAll(PHASES)) {
            throw new IllegalArgumentException("Expected bench.phases to name some of " + known + ", but found "
                    + PHASES);
        }
        List<String> settings = new ArrayList<>(List.of("--server.port=0", "--tokenflow.embedded.ephemeral=true",
                "--logging.level.root=WARN", "--spring.main.banner-mode=off",
                "--tokenflow.workers.concurrency.function=" + (IN_FLIGHT + 20), "--tokenflow.workers.batch-size=1",
                "--tokenflow.security.users[0].username=bench", "--tokenflow.security.users[0].password={noop}bench-pass",
                "--tokenflow.security.users[0].roles=operator,designer"));
        settings.addAll(List.of(args));
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(TokenflowApplication.class)
                .run(settings.toArray(String[]::new))) {
            LiveBenchmark bench = new LiveBenchmark("http://localhost:"
                    + app.getEnvironment().getProperty("local.server.port"));
            System.out.printf("Tokenflow live benchmark: %d cores, Java %s%n", Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"));
            if (PHASES.contains("engine")) {
                bench.latency(app);
            }
            if (PHASES.contains("sockets")) {
                bench.syntheticLatency(app, 0);
            }
            if (PHASES.contains("browser")) {
                for (int pages : BROWSER_PAGES) {
                    bench.syntheticLatency(app, pages);
                }
            }
            if (PHASES.contains("long")) {
                bench.longRun(app);
            }
        }
        System.exit(0);
    }

    private void latency(ConfigurableApplicationContext app) throws Exception {
        CreateWorkflow creating = app.getBean(CreateWorkflow.class);
        StartRun starting = app.getBean(StartRun.class);
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        var created = creating.create(JSON.readTree(chainJson("live-bench", CHAIN)), "bench");
        String workflow = created.name();
        Map<UUID, Watcher> watching = new ConcurrentHashMap<>();
        long warmUpEnds = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        long ends = warmUpEnds + MEASURE.toNanos();
        long eventsBefore = 0;
        boolean measuring = false;
        while (System.nanoTime() < ends) {
            watching.values().removeIf(Watcher::finished);
            while (watching.size() < IN_FLIGHT) {
                UUID run = starting.start(new StartRunCommand(workflow, null, null, null, null), "bench").id();
                watching.put(run, new Watcher(run));
            }
            if (!measuring && System.nanoTime() >= warmUpEnds) {
                measuring = true;
                latencies.clear();
                eventsBefore = events(jdbc);
            }
            Thread.sleep(20);
        }
        long logged = events(jdbc) - eventsBefore;
        watching.values().forEach(Watcher::close);
        List<Long> sorted = new ArrayList<>(latencies);
        sorted.sort(null);
        System.out.printf("Live latency, %d runs in flight, %.0f events/s written to the event log, %d events seen by "
                        + "the watchers in %d s: p50 %d ms, p90 %d ms, p99 %d ms, max %d ms%n", IN_FLIGHT,
                logged / (double) MEASURE.toSeconds(), sorted.size(), MEASURE.toSeconds(), pct(sorted, 50),
                pct(sorted, 90), pct(sorted, 99), sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1));
        System.out.printf("  those runs took p50 %.2f s, p90 %.2f s from start to end (their nodes sleep %.1f s in all)%n",
                runSeconds(jdbc, created.id(), 0.5), runSeconds(jdbc, created.id(), 0.9), CHAIN * SLEEP_MS / 1000.0);
    }

    private static double runSeconds(JdbcTemplate jdbc, UUID workflowId, double fraction) {
        Double seconds = jdbc.queryForObject("select percentile_cont(?) within group (order by extract(epoch from "
                + "ended_at - created_at)) from runs where workflow_id = ? and status = 'COMPLETED'", Double.class,
                fraction, workflowId);
        return seconds == null ? 0 : seconds;
    }

    /**
     * The same measurement at 1,000 events/s: runs of the 10-node chain appended straight to the events stream (each
     * run one step every 200 ms at a fixed rate, two events a step, so 100 runs in flight make 1,000 events/s), as the
     * coordinator's Lua steps do. Watched either by a WebSocket client per run, or
     * by {@code browserPages} real Chromium pages, each on the newest run until it ends (event → pixel).
     *
     * @param browserPages 0 for a WebSocket client per run
     */
    private void syntheticLatency(ConfigurableApplicationContext app, int browserPages) throws Exception {
        boolean socketPerRun = browserPages == 0;
        RedisKeys keys = app.getBean(RedisKeys.class);
        var redis = app.getBean(RedisConnections.class).commands();
        // the steps due at one moment go out pipelined on a connection of the generator's own
        var steps = app.getBean(RedisConnections.class).dedicated().async();
        int chain = socketPerRun ? CHAIN : BROWSER_CHAIN;
        UUID workflowId = app.getBean(CreateWorkflow.class).create(JSON.readTree(chainJson("live-bench-synthetic",
                chain)), "bench").id();
        latencies.clear();
        BrowserWatchers browsers = socketPerRun ? null : new BrowserWatchers(base, cookie, browserPages);
        List<SyntheticRun> runs = new ArrayList<>();
        long measuring = System.nanoTime() + WARMUP.toNanos();
        long ends = measuring + MEASURE.toNanos();
        boolean warm = WARMUP.isZero();
        long sent = 0;
        long startedAt = System.nanoTime();
        while (System.nanoTime() < ends) {
            if (!warm && System.nanoTime() >= measuring) {
                // the warm-up's figures go; the load goes on as it was (runs in flight, pages on their runs)
                warm = true;
                latencies.clear();
                if (browsers != null) {
                    browsers.discard();
                }
                sent = 0;
                startedAt = System.nanoTime();
            }
            runs.removeIf(SyntheticRun::done);
            while (runs.size() < IN_FLIGHT) {
                SyntheticRun run = new SyntheticRun(UUID.randomUUID(), workflowId, chain);
                redis.hset(keys.run(run.id).meta(), "seq", "2");
                List<io.lettuce.core.RedisFuture<String>> started = new ArrayList<>();
                sent += run.step(steps, keys, started);
                started.get(0).get();
                runs.add(run);
                if (socketPerRun) {
                    run.watcher = new Watcher(run.id);
                } else {
                    browsers.offer(run.id);
                }
            }
            List<io.lettuce.core.RedisFuture<String>> added = new ArrayList<>();
            for (SyntheticRun run : runs) {
                if (System.nanoTime() >= run.nextStepNanos) {
                    sent += run.step(steps, keys, added);
                }
            }
            for (io.lettuce.core.RedisFuture<String> reply : added) {
                reply.get();
            }
            Thread.sleep(2);
        }
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        Thread.sleep(1500);
        if (socketPerRun) {
            runs.forEach(run -> run.watcher.close());
            System.out.printf("Live latency, synthetic: %d runs in flight, %.0f events/s appended to the events "
                    + "stream, %s%n", IN_FLIGHT, sent / seconds, figures("seen by the WebSocket watchers", latencies));
        } else {
            browsers.close();
            System.out.printf("Event → browser pixel, synthetic: %.0f events/s appended to the events stream, %d "
                    + "Chromium pages at 1440×900 each on the newest run (%d-node chain) until it ends, %s%n",
                    sent / seconds, browserPages, chain, figures("drawn", browsers.latencies()));
            System.out.printf("  of which event → WebSocket message in the page: %s%n",
                    figures("arrived", browsers.arrivals()));
            System.out.printf("  and the page's handling of a message (swap and redraw): %s%n",
                    figures("messages handled", browsers.handling()).replace(" events", ""));
            System.out.printf("  and from a message's handling to the next frame: %s%n",
                    figures("messages", browsers.frames()).replace(" events", ""));
        }
    }

    private static String figures(String what, List<Long> latencies) {
        List<Long> sorted = new ArrayList<>(latencies);
        sorted.sort(null);
        return String.format("%d events %s: p50 %d ms, p90 %d ms, p99 %d ms, max %d ms", sorted.size(), what,
                pct(sorted, 50), pct(sorted, 90), pct(sorted, 99), sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1));
    }

    private static String chainJson(String name, int nodes) {
        StringBuilder chain = new StringBuilder("{\"name\": \"" + name + "-" + UUID.randomUUID().toString().substring(0, 8)
                + "\", \"nodes\": [");
        for (int i = 1; i <= nodes; i++) {
            chain.append(i > 1 ? "," : "").append("{\"id\": \"n").append(i)
                    .append("\", \"type\": \"function\", \"config\": {\"function\": \"sleep\", \"args\": {\"ms\": ")
                    .append(SLEEP_MS).append("}}}");
        }
        chain.append("], \"edges\": [");
        for (int i = 2; i <= nodes; i++) {
            chain.append(i > 2 ? "," : "").append("{\"from\": \"n").append(i - 1).append("\", \"to\": \"n").append(i)
                    .append("\"}");
        }
        return chain.append("]}").toString();
    }

    /** One synthetic run of the chain: step 0 starts it, steps 1..n complete node i and emit the next token. */
    private static final class SyntheticRun {

        /** Two events a step, one step every 200 ms: 10 events/s a run, 1,000 events/s for 100 runs in flight. */
        private static final long STEP_NANOS = 200_000_000L;

        private final UUID id;
        private final UUID workflowId;
        private final int nodes;
        private int step;
        private long seq;
        private long nextStepNanos;
        private Watcher watcher;

        SyntheticRun(UUID id, UUID workflowId, int nodes) {
            this.id = id;
            this.workflowId = workflowId;
            this.nodes = nodes;
        }

        boolean done() {
            return step > nodes;
        }

        int step(io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands<String, String> redis, RedisKeys keys,
                 List<io.lettuce.core.RedisFuture<String>> added) {
            long now = System.currentTimeMillis();
            List<String> events = new ArrayList<>();
            if (step == 0) {
                events.add(event("run.started", null, null, now, "{\"workflow_id\": \"" + workflowId
                        + "\", \"workflow_version\": 1, \"ir_revision\": 0, \"inputs\": {}, \"entry_nodes\": [\"n1\"]}"));
                events.add(event("token.emitted", "n1", "t1", now, "{\"from\": null, \"iteration\": 0}"));
            } else {
                events.add(event("node.completed", "n" + step, "t" + step, now, "{\"iteration\": 0, \"output\": {}, "
                        + "\"worker\": \"w\", \"terminal\": " + (step == nodes) + "}"));
                events.add(step == nodes ? event("run.completed", null, null, now, "{}")
                        : event("token.emitted", "n" + (step + 1), "t" + (step + 1), now,
                        "{\"from\": \"n" + step + "\", \"parent\": \"t" + step + "\", \"iteration\": 0}"));
            }
            added.add(redis.xadd(keys.eventsStream(keys.shardOf(id)), "run", id.toString(), "events",
                    "[" + String.join(",", events) + "]"));
            // as the Lua steps do: the run's meta holds its newest seq (else the supervisor's lost-run sweep finds
            // the log ahead of Redis on a run longer than its grace, and recovers it)
            redis.hset(keys.run(id).meta(), "seq", String.valueOf(seq));
            step++;
            nextStepNanos = (nextStepNanos == 0 ? System.nanoTime() : nextStepNanos) + STEP_NANOS;
            return events.size();
        }

        private String event(String type, String node, String token, long at, String data) {
            seq++;
            return "{\"seq\": " + seq + ", \"type\": \"" + type + "\", \"at\": " + at + ", \"node\": "
                    + (node == null ? "null" : "\"" + node + "\"") + ", \"token\": "
                    + (token == null ? "null" : "\"" + token + "\"") + ", \"data\": " + data + "}";
        }
    }

    private void longRun(ConfigurableApplicationContext app) throws Exception {
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        UUID workflowId = app.getBean(CreateWorkflow.class).create(JSON.readTree("""
                {"name": "live-bench-loop-%s", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "noop"},
                   "loop": {"max_iterations": 40000, "loop_back_to": "A", "break_path": ["B"]}},
                  {"id": "B", "type": "function", "config": {"function": "noop"}}],
                 "edges": [{"from": "A", "to": "B"}]}""".formatted(UUID.randomUUID().toString().substring(0, 8))),
                "bench").id();
        UUID run = UUID.randomUUID();
        long start = System.currentTimeMillis() - 3_600_000;
        int events = LongRunEvents.insert(jdbc, run, workflowId, start);
        System.out.printf("Long run: %d events in event_log%n", events);
        time("page load (cold: events read from PostgreSQL)", "/runs/" + run);
        time("page load (warm)", "/runs/" + run);
        time("slider to event 50,000", "/runs/" + run + "/at?seq=50000&from=49990");
        time("slider to event 99,000", "/runs/" + run + "/at?seq=99000&from=50000");
        time("node detail of B (replay of all events)", "/runs/" + run + "/nodes/B");
    }

    private void time(String what, String path) throws Exception {
        long started = System.nanoTime();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("  %-50s %5d ms  (HTTP %d, %,d bytes)%n", what, millis, response.statusCode(),
                response.body().length());
    }

    private static long events(JdbcTemplate jdbc) {
        return jdbc.queryForObject("select count(*) from event_log", Long.class);
    }

    private static long pct(List<Long> sorted, int percentile) {
        return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, sorted.size() * percentile / 100));
    }

    /** Signs in through the login form, as a browser does, and returns the session cookie. */
    private String signIn() throws Exception {
        HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher csrf = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"").matcher(login.body());
        if (!csrf.find()) {
            throw new IllegalStateException("Expected a CSRF field on the login page");
        }
        String session = login.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
        String form = "username=bench&password=bench-pass&_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8);
        HttpResponse<String> signedIn = http.send(HttpRequest.newBuilder(URI.create(base + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", session)
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        return signedIn.headers().firstValue("Set-Cookie").orElse(session).split(";")[0];
    }

    /** One browser watching one run: records the latency of every event it sees after the first push. */
    private final class Watcher implements WebSocket.Listener {

        private final StringBuilder message = new StringBuilder();
        private final CompletableFuture<WebSocket> socket;
        private long maxSeen = -1;
        private volatile boolean finished;

        /** Connects and subscribes without waiting (a starting run's first push shows everything so far anyway). */
        Watcher(UUID run) {
            socket = http.newWebSocketBuilder().header("Cookie", cookie).header("Origin", base)
                    .buildAsync(URI.create(base.replace("http", "ws") + "/live"), this)
                    .thenCompose(ws -> ws.sendText("{\"subscribe\": \"run:" + run + "\", \"after\": 0}", true));
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            message.append(data);
            if (last) {
                long arrived = System.currentTimeMillis();
                seen(message.toString(), arrived);
                message.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        private void seen(String fragments, long arrived) {
            Matcher timeline = TIMELINE.matcher(fragments);
            long newest = maxSeen;
            while (timeline.find()) {
                long seq = Long.parseLong(timeline.group(1));
                if (maxSeen >= 0 && seq > maxSeen) {
                    latencies.add(arrived - Long.parseLong(timeline.group(2)));
                }
                newest = Math.max(newest, seq);
            }
            maxSeen = Math.max(newest, 0);
            if (fragments.contains("data-status=\"COMPLETED\"") || fragments.contains("data-status=\"FAILED\"")) {
                finished = true;
                close();
            }
        }

        boolean finished() {
            return finished;
        }

        void close() {
            socket.thenAccept(ws -> ws.sendClose(WebSocket.NORMAL_CLOSURE, "done"));
        }
    }

    /** A valid run of 100,000 events: a loop node passing 33,332 times, then its break path, written to the log. */
    private static final class LongRunEvents {

        static int insert(JdbcTemplate jdbc, UUID run, UUID workflowId, long start) {
            int passes = 33_332;
            jdbc.update("insert into runs (id, workflow_id, workflow_version, status, created_at, started_at, ended_at, "
                    + "final_counter) values (?, ?, 1, 'COMPLETED', ?, ?, ?, 0)", run, workflowId,
                    new Timestamp(start), new Timestamp(start), new Timestamp(start + 3 * passes + 10));
            List<Object[]> rows = new ArrayList<>();
            rows.add(row(run, 1, "run.started", null, null, start, "{\"workflow_id\": \"" + workflowId
                    + "\", \"workflow_version\": 1, \"ir_revision\": 0, \"inputs\": {}, \"entry_nodes\": [\"A\"]}"));
            for (int pass = 0; pass < passes; pass++) {
                String token = "t" + pass;
                String from = pass == 0 ? "null" : "\"A\"";
                String parent = pass == 0 ? "null" : "\"t" + (pass - 1) + "\"";
                String action = pass + 1 == passes ? "break" : "again";
                rows.add(row(run, rows.size() + 1, "token.emitted", "A", token, start + rows.size(),
                        "{\"from\": " + from + ", \"parent\": " + parent + ", \"iteration\": " + pass + "}"));
                rows.add(row(run, rows.size() + 1, "node.started", "A", token, start + rows.size(),
                        "{\"iteration\": " + pass + ", \"worker\": \"w-1\"}"));
                rows.add(row(run, rows.size() + 1, "node.completed", "A", token, start + rows.size(),
                        "{\"iteration\": " + pass + ", \"worker\": \"w-1\", \"output\": {\"pass\": " + pass + "}, "
                                + "\"route\": {\"loop\": {\"pass\": " + (pass + 1) + ", \"max_iterations\": 40000, "
                                + "\"action\": \"" + action + "\"}}}"));
            }
            rows.add(row(run, rows.size() + 1, "token.emitted", "B", "tb", start + rows.size(),
                    "{\"from\": \"A\", \"parent\": \"t" + (passes - 1) + "\", \"iteration\": 0}"));
            rows.add(row(run, rows.size() + 1, "node.completed", "B", "tb", start + rows.size(),
                    "{\"iteration\": 0, \"worker\": \"w-1\", \"output\": {\"done\": true}, \"terminal\": true}"));
            rows.add(row(run, rows.size() + 1, "run.completed", null, null, start + rows.size(), "{}"));
            for (int from = 0; from < rows.size(); from += 5_000) {
                jdbc.batchUpdate("insert into event_log (run_id, seq, event_type, node_id, token_id, data, occurred_at) "
                        + "values (?, ?, ?, ?, ?, ?::json, ?)", rows.subList(from, Math.min(rows.size(), from + 5_000)));
            }
            return rows.size();
        }

        private static Object[] row(UUID run, int seq, String type, String node, String token, long at, String data) {
            return new Object[] {run, seq, type, node, token, data, Timestamp.from(Instant.ofEpochMilli(at))};
        }
    }
}
