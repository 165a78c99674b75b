package io.tokenflow.triggers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import io.tokenflow.TokenflowApplication;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Cron triggers on the real engine: a per-second schedule fires each tick exactly once with two application instances
 * on the same PostgreSQL and Redis, and the runs complete; missed ticks follow the trigger's policy.
 */
@IntegrationTest
@AutoConfigureMockMvc
class CronTriggersIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;
    @Autowired
    Environment environment;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    CronScheduler scheduler;
    @Autowired
    ActiveTriggers active;
    @Autowired
    TriggerFires fires;
    @Autowired
    TickStarts starts;
    @Autowired
    TriggerSettings settings;
    private final List<UUID> created = new ArrayList<>();

    @Test
    void aPerSecondScheduleFiresEachTickExactlyOnceWithTwoInstances() throws Exception {
        try (ConfigurableApplicationContext second = secondInstance()) {
            String otherInstance = second.getBean(CronScheduler.class).instance();
            UUID workflow = create("triggers/every-second");
            await().atMost(Duration.ofSeconds(40)).until(() -> fireRows(workflow).size() >= 6);
            removeTriggers(workflow);
            await().atMost(Duration.ofSeconds(20)).until(() -> fireRows(workflow).stream()
                    .allMatch(fire -> "started".equals(fire.get("outcome"))));
            List<Map<String, Object>> rows = fireRows(workflow);
            List<Instant> ticks = rows.stream().map(fire -> ((Timestamp) fire.get("fire_at")).toInstant())
                    .toList();
            Instant first = ticks.get(0);
            assertThat(ticks).as("one row per second, none missing, none twice")
                    .isEqualTo(IntStream.range(0, ticks.size()).mapToObj(first::plusSeconds).toList());
            assertThat(rows).extracting(fire -> fire.get("claimed_by"))
                    .allMatch(Set.of(scheduler.instance(), otherInstance)::contains);
            System.out.println("Cron ticks claimed per instance: " + rows.stream().collect(Collectors.groupingBy(
                    fire -> fire.get("claimed_by"), Collectors.counting())));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                List<Map<String, Object>> runs = jdbc.sql("select id, idempotency_key, status, inputs::text as "
                        + "inputs from runs where workflow_id = ? order by idempotency_key").params(workflow).query()
                        .listOfRows();
                assertThat(runs).as("exactly one run per tick").hasSize(rows.size());
                assertThat(runs).extracting(run -> run.get("idempotency_key")).containsExactlyElementsOf(ticks.stream()
                        .map(tick -> "trigger:" + workflow + ":tick:" + tick).toList());
                assertThat(runs).extracting(run -> run.get("id")).containsExactlyInAnyOrderElementsOf(
                        rows.stream().map(fire -> fire.get("run_id")).toList());
                assertThat(runs).allSatisfy(run -> {
                    assertThat(run.get("status")).isEqualTo("COMPLETED");
                    assertThat(JSON.readTree((String) run.get("inputs")).get("mode").asString()).isEqualTo("tick");
                });
            });
        }
    }

    @Test
    void aWorkflowWhoseNewestVersionCannotBeReadStopsNoOtherSchedule() throws Exception {
        UUID workflow = create("triggers/nightly");
        UUID broken = UUID.randomUUID();
        jdbc.sql("insert into workflows (id, tenant_id, name, latest_version, created_by, created_at, updated_at) "
                + "values (?, 'default', ?, 1, 'test', now(), now())").params(broken, "broken-" + broken).update();
        try {
            assertThat(active.all()).extracting(ActiveTriggers.WorkflowTriggers::workflowId).contains(workflow)
                    .doesNotContain(broken);
        } finally {
            jdbc.sql("delete from workflows where id = ?").param(broken).update();
        }
    }

    @Test
    void missedTicksAreSkippedOrFireOnceAfterDowntimeThenTicksFireOnTime() throws Exception {
        UUID workflow = create("triggers/nightly");
        Instant saved = savedAt(workflow);
        Instant backAt = LocalDate.ofInstant(saved, ZoneOffset.UTC).plusDays(3).atTime(4, 0).toInstant(ZoneOffset.UTC);
        Instant lastMissed = backAt.truncatedTo(ChronoUnit.DAYS).plus(Duration.ofHours(3));
        long missed = IntStream.rangeClosed(0, 3).mapToObj(day -> lastMissed.minus(Duration.ofDays(day)))
                .filter(tick -> tick.isAfter(saved)).count();

        schedulerAt(backAt).fireDue();
        assertThat(fires.recent(workflow, "catch-up", 10)).singleElement().satisfies(fire -> {
            assertThat(fire.fireAt()).isEqualTo(lastMissed);
            assertThat(fire.outcome()).isEqualTo("started");
            assertThat(fire.missedTicks()).isEqualTo(missed);
            assertThat(fire.runId()).isNotNull();
        });
        assertThat(fires.recent(workflow, "skipping", 10)).singleElement().satisfies(fire -> {
            assertThat(fire.fireAt()).isEqualTo(lastMissed);
            assertThat(fire.outcome()).isEqualTo("skipped");
            assertThat(fire.missedTicks()).isEqualTo(missed);
            assertThat(fire.runId()).isNull();
        });

        Instant nextTick = lastMissed.plus(Duration.ofDays(1));
        schedulerAt(nextTick.plusSeconds(2)).fireDue();
        for (String trigger : List.of("catch-up", "skipping")) {
            TriggerFires.Fired fire = fires.recent(workflow, trigger, 1).get(0);
            assertThat(fire.fireAt()).isEqualTo(nextTick);
            assertThat(fire.outcome()).isEqualTo("started");
            assertThat(fire.missedTicks()).isZero();
        }
        awaitCompletedRuns(workflow, 3);
    }

    @Test
    void twoSchedulersRacingForTheSameTicksStartEachRunOnce() throws Exception {
        UUID workflow = create("triggers/nightly");
        Instant at = LocalDate.ofInstant(savedAt(workflow), ZoneOffset.UTC).plusDays(3).atTime(3, 0, 2)
                .toInstant(ZoneOffset.UTC);
        List<CronScheduler> racers = List.of(schedulerAt(at), schedulerAt(at));
        CyclicBarrier barrier = new CyclicBarrier(2);
        List<Future<Integer>> started;
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            started = threads.invokeAll(racers.stream().map(racer -> (Callable<Integer>) () -> {
                barrier.await();
                return racer.fireDue();
            }).toList());
        } finally {
            threads.shutdown();
        }
        assertThat(jdbc.sql("select outcome from trigger_fires where workflow_id = ?").params(workflow)
                .query(String.class).list()).as("catch-up: one run for its missed ticks and one on time; skipping: "
                        + "its missed ticks skipped, one on time").containsExactlyInAnyOrder("started", "started",
                        "started", "skipped");
        awaitCompletedRuns(workflow, 3);
        System.out.println("Racing schedulers started " + started.get(0).get() + " and " + started.get(1).get()
                + " runs (of any workflow with ticks due at their clock)");
    }

    @Test
    void aClaimWhoseInstanceDiedBeforeStartingIsTakenOverOnce() throws Exception {
        UUID workflow = create("triggers/nightly");
        Instant tick = LocalDate.ofInstant(savedAt(workflow), ZoneOffset.UTC).plusDays(1).atTime(3, 0)
                .toInstant(ZoneOffset.UTC);
        jdbc.sql("insert into trigger_fires (workflow_id, trigger_id, fire_at, workflow_version, outcome, claimed_at, "
                        + "claimed_by) values (?, 'catch-up', ?, 1, 'claimed', ?, 'died-after-claiming')")
                .params(workflow, Timestamp.from(tick), Timestamp.from(tick.plusSeconds(1))).update();
        CronScheduler survivor = schedulerAt(tick.plus(settings.claimTimeout()).plusSeconds(2));

        survivor.fireDue();
        TriggerFires.Fired fire = fires.recent(workflow, "catch-up", 1).get(0);
        assertThat(fire.fireAt()).isEqualTo(tick);
        assertThat(fire.outcome()).isEqualTo("started");
        assertThat(fire.claimedBy()).isEqualTo(survivor.instance());
        survivor.fireDue();
        assertThat(fires.recent(workflow, "catch-up", 1).get(0).claimedBy()).as("taken over once")
                .isEqualTo(survivor.instance());
        awaitCompletedRuns(workflow, 1);
        assertThat(jdbc.sql("select idempotency_key from runs where workflow_id = ?").params(workflow)
                .query(String.class).single()).isEqualTo("trigger:" + workflow + ":catch-up:" + tick);
    }

    @Test
    void listsCronTriggersWithTheirNextFireInTheirZoneAndInUtc() throws Exception {
        UUID workflow = create("triggers/every-second");
        Instant asked = Instant.now();
        JsonNode triggers = JSON.readTree(mvc.perform(get("/api/v1/workflows/" + workflow + "/triggers")
                .with(user("olga").roles("OPERATOR"))).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString());
        String table = mvc.perform(get("/workflows/" + workflow + "/triggers").header("HX-Request", "true")
                .with(user("olga").roles("OPERATOR"))).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
        removeTriggers(workflow);
        assertThat(table).contains("*/1 * * * * *").contains("in Europe/Berlin, missed ticks: skip").contains(" UTC)");
        JsonNode tick = triggers.get(0);
        assertThat(tick.get("id").asString()).isEqualTo("tick");
        assertThat(tick.get("timeZone").asString()).isEqualTo("Europe/Berlin");
        Instant next = Instant.parse(tick.get("nextFireAt").asString());
        assertThat(next).as("the next second").isAfter(asked).isBefore(asked.plusSeconds(5));
        assertThat(java.time.OffsetDateTime.parse(tick.get("nextFireLocal").asString()).toInstant()).isEqualTo(next);
    }

    private ConfigurableApplicationContext secondInstance() {
        return new SpringApplicationBuilder(TokenflowApplication.class).profiles("test").run(
                "--server.port=0", "--tokenflow.embedded.enabled=false",
                "--spring.datasource.url=" + environment.getRequiredProperty("spring.datasource.url"),
                "--spring.datasource.username=" + environment.getProperty("spring.datasource.username", ""),
                "--spring.datasource.password=" + environment.getProperty("spring.datasource.password", ""),
                "--spring.data.redis.host=" + environment.getProperty("spring.data.redis.host", "127.0.0.1"),
                "--spring.data.redis.port=" + environment.getProperty("spring.data.redis.port", "6379"));
    }

    /**
     * Waits until the workflow has exactly {@code runs} runs, all completed: schedulers with a clock days ahead fire
     * every workflow whose ticks are then due, so each test counts its own workflow's runs.
     */
    private void awaitCompletedRuns(UUID workflow, int runs) {
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("select count(*) from runs where workflow_id = ? "
                + "and status = 'COMPLETED'").params(workflow).query(Long.class).single() == runs);
        assertThat(jdbc.sql("select count(*) from runs where workflow_id = ?").params(workflow).query(Long.class)
                .single()).isEqualTo(runs);
    }

    /** Each test's triggers stop with it: a new version without them (only the newest version's are active). */
    @AfterEach
    void stopTriggers() throws Exception {
        for (UUID workflow : created) {
            int version = jdbc.sql("select latest_version from workflows where id = ?").params(workflow)
                    .query(Integer.class).single();
            if (version == 1) {
                removeTriggers(workflow);
            }
        }
        created.clear();
    }

    /** A scheduler of this instance's beans whose clock stands still at {@code now}. */
    private CronScheduler schedulerAt(Instant now) {
        return new CronScheduler(active, fires, starts, settings, Clock.fixed(now, ZoneOffset.UTC));
    }

    private Instant savedAt(UUID workflow) {
        return jdbc.sql("select created_at from workflow_versions where workflow_id = ?").params(workflow)
                .query(Timestamp.class).single().toInstant();
    }

    private UUID create(String fixture) throws Exception {
        String answer = mvc.perform(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                        .content(TestWorkflows.fixture(fixture, TestWorkflows.unique("cron")))
                        .with(user("dora").roles("DESIGNER")).with(csrf()))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString();
        UUID workflow = UUID.fromString(JSON.readTree(answer).get("id").asString());
        created.add(workflow);
        return workflow;
    }

    /** A new version without triggers: the schedule stops (only the newest version's triggers are active). */
    private void removeTriggers(UUID workflow) throws Exception {
        mvc.perform(patch("/api/v1/workflows/" + workflow).contentType("application/json-patch+json")
                        .content("[{\"op\": \"remove\", \"path\": \"/triggers\"}]").header("If-Match", "\"1\"")
                        .with(user("dora").roles("DESIGNER")).with(csrf()))
                .andExpect(status().isOk());
    }

    private List<Map<String, Object>> fireRows(UUID workflow) {
        return jdbc.sql("select fire_at, outcome, run_id, claimed_by from trigger_fires where workflow_id = ? "
                + "order by fire_at").params(workflow).query().listOfRows();
    }
}
