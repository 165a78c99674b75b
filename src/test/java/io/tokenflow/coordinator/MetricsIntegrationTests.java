package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;

/**
 * The metrics as an operator's Prometheus sees them: runs driven over the REST API (a fan-out whose one branch retries
 * at an external worker speaking only the Redis protocol and whose other maps over a list, joined behind both; an
 * approval left pending; a task parked in the dead-letter queue; a token nobody takes), then {@code
 * /actuator/prometheus} scraped as an admin. Every metric of issue #27's list is there with the figures the runs
 * imply, and every metric the Grafana dashboard and the alert rules in {@code deploy/observability/} name exists.
 */
class MetricsIntegrationTests extends OperatorTests {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})? (\\S+)",
            Pattern.MULTILINE);
    private static final Pattern NAMED = Pattern.compile("\\btokenflow_[a-z0-9_]+");

    @Test
    void aScrapeAfterRunsShowsEveryMetricAndEveryMetricTheDashboardAndAlertsName() throws Exception {
        String charge = api.customType("charge");
        String parked = api.customType("book");
        String idle = api.customType("idle");
        String fanOut = api.created("""
                {"name": "metrics-%s", "nodes": [
                  {"id": "split", "type": "function", "config": {"function": "echo"}},
                  {"id": "charge", "type": "%s", "retry": {"max_attempts": 2, "backoff_ms": 50, "jitter": 0}},
                  {"id": "ship", "type": "function", "config": {"function": "echo"},
                   "map": {"items": "${workflow.input.items}", "concurrency": 2}},
                  {"id": "done", "type": "function", "config": {"function": "echo"}, "wait_for_all": true}],
                 "edges": [{"from": "split", "to": "charge"}, {"from": "split", "to": "ship"},
                           {"from": "charge", "to": "done"}, {"from": "ship", "to": "done"}]}"""
                .formatted(UUID.randomUUID(), charge));
        String waiting = api.created("""
                {"name": "metrics-waits-%s", "nodes": [
                  {"id": "approve", "type": "human", "human": {"title": "Ship it?", "approvers": ["role:approver"]}},
                  {"id": "book", "type": "%s", "on_failure": {"action": "dlq"}},
                  {"id": "nobody", "type": "%s"}]}""".formatted(UUID.randomUUID(), parked, idle));

        UUID run = api.start(fanOut, "{\"items\": [1, 2, 3]}");
        ManualWorker chargeWorker = api.worker(charge);
        chargeWorker.failTransiently(chargeWorker.takeOne(Duration.ofSeconds(10)), "gateway busy");
        chargeWorker.complete(chargeWorker.takeOne(Duration.ofSeconds(10)), "{\"charged\": true}");
        api.awaitStatus(run, "COMPLETED");
        UUID held = api.start(waiting);
        ManualWorker bookWorker = api.worker(parked);
        bookWorker.fail(bookWorker.takeOne(Duration.ofSeconds(10)), "no seats");
        awaitLogged(held, "node.parked", 1);
        awaitLogged(run, "run.completed", 1);

        String workflowTag = "workflow=\"" + fanOut + "\"";
        Map<String, Double> scraped = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(this::scrape, samples -> value(samples, "tokenflow_dlq_size", "node_type=\"" + parked + "\"") >= 1
                        && value(samples, "tokenflow_approvals_pending", "") >= 1
                        && value(samples, "tokenflow_queue_depth", "type=\"" + idle + "\"") >= 1
                        && value(samples, "tokenflow_runs_ended_total", workflowTag, "status=\"completed\"") >= 1
                        // the deployment gauges are read every 10 s; the charge worker's row comes with a read after
                        // its type was registered (another cached test context's reads may come between)
                        && samples.containsKey("tokenflow_workers_busy{shard=\"0\",type=\"" + charge + "\"}"));

        assertThat(value(scraped, "tokenflow_runs_started_total", workflowTag)).isEqualTo(1);
        assertThat(value(scraped, "tokenflow_run_duration_seconds_count", workflowTag, "status=\"completed\""))
                .isEqualTo(1);
        assertThat(value(scraped, "tokenflow_tokens_emitted_total", workflowTag, "node_type=\"" + charge + "\""))
                .isEqualTo(1);
        assertThat(value(scraped, "tokenflow_tokens_consumed_total", workflowTag, "node_type=\"" + charge + "\"",
                "outcome=\"completed\"")).isEqualTo(1);
        assertThat(value(scraped, "tokenflow_node_retries_total", workflowTag, "node_type=\"" + charge + "\""))
                .isEqualTo(1);
        assertThat(value(scraped, "tokenflow_map_items_total", workflowTag, "outcome=\"completed\"")).isEqualTo(3);
        assertThat(value(scraped, "tokenflow_hop_latency_seconds_count", workflowTag, "node_type=\"function\""))
                .isGreaterThanOrEqualTo(3);
        assertThat(value(scraped, "tokenflow_hop_latency_seconds_bucket", workflowTag, "node_type=\"" + charge + "\"",
                "le=\"+Inf\"")).as("the retried attempt and the completion are each a hop").isEqualTo(2);
        assertThat(value(scraped, "tokenflow_dlq_parked_total", "node_type=\"" + parked + "\"")).isEqualTo(1);
        assertThat(value(scraped, "tokenflow_lua_step_seconds_count", "script=\"route-completion\"")).isPositive();
        assertThat(scraped).containsKeys("tokenflow_queue_oldest_seconds{shard=\"0\",type=\"" + idle + "\"}",
                "tokenflow_workers_busy{shard=\"0\",type=\"" + charge + "\"}",
                "tokenflow_workers_idle{shard=\"0\",type=\"" + charge + "\"}", "tokenflow_approvals_overdue",
                "tokenflow_eventlog_lag_entries", "tokenflow_eventlog_lag_seconds",
                "tokenflow_counter_divergence", "tokenflow_counter_divergent_runs");
        assertThat(value(scraped, "tokenflow_queue_oldest_seconds", "type=\"" + idle + "\"")).isPositive();
        assertThat(value(scraped, "tokenflow_counter_divergent_runs", "")).as("counters agree with their tokens")
                .isZero();
        assertThat(scraped.keySet()).noneMatch(series -> series.contains(run.toString())
                || series.contains(held.toString()));

        Set<String> names = new TreeSet<>();
        scraped.keySet().forEach(series -> names.add(series.replaceAll("\\{.*", "")));
        Set<String> named = namedIn(Path.of("deploy/observability"));
        assertThat(named).as("metrics named by the dashboard and the alert rules").hasSizeGreaterThan(10);
        assertThat(names).containsAll(named);
        System.out.println("Metrics: " + names.stream().filter(name -> name.startsWith("tokenflow_")).count()
                + " tokenflow series names scraped; the dashboard and alert rules name " + named.size()
                + ", all present");
    }

    @Test
    void aTaskHeldByAWorkerCountsItAsBusy() throws Exception {
        String type = api.customType("slow");
        String workflow = api.created("""
                {"name": "busy-%s", "nodes": [{"id": "work", "type": "%s"}]}""".formatted(UUID.randomUUID(), type));
        UUID run = api.start(workflow);
        ManualWorker worker = api.worker(type);
        StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
        String busy = "tokenflow_workers_busy";
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> value(scrape(), busy, "type=\"" + type + "\"") == 1);
        worker.complete(token, "{}");
        api.awaitStatus(run, "COMPLETED");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> value(scrape(), busy, "type=\"" + type + "\"") == 0
                        && value(scrape(), "tokenflow_workers_idle", "type=\"" + type + "\"") == 1);
    }

    /** Series (name and labels as scraped) → value. */
    private Map<String, Double> scrape() throws Exception {
        String text = mvc.perform(get("/actuator/prometheus").with(user("ada").roles("ADMIN")))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        Map<String, Double> samples = new TreeMap<>();
        Matcher sample = SAMPLE.matcher(text);
        while (sample.find()) {
            if (!sample.group(1).startsWith("#")) {
                samples.put(sample.group(1) + (sample.group(2) == null ? "" : sample.group(2)),
                        Double.parseDouble(sample.group(3)));
            }
        }
        return samples;
    }

    /** The sum of the series of {@code name} whose labels contain every one of {@code labels}. */
    private static double value(Map<String, Double> samples, String name, String... labels) {
        return samples.entrySet().stream().filter(entry -> entry.getKey().replaceAll("\\{.*", "").equals(name))
                .filter(entry -> java.util.Arrays.stream(labels).allMatch(entry.getKey()::contains))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    private static Set<String> namedIn(Path dir) throws IOException {
        Set<String> named = new TreeSet<>();
        try (var files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Matcher name = NAMED.matcher(Files.readString(file));
                while (name.find()) {
                    named.add(name.group());
                }
            }
        }
        return named;
    }
}
