package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.chaos.Chaos;

/**
 * A small, bounded form of the chaos suite ({@link Chaos}, see its Javadoc for the full program): app instances
 * {@code kill -9}ed in turn while runs execute, Redis flushed mid-load, and one poisoned entry among the runs. Each scenario runs real processes (child
 * JVMs, a Redis server of its own) on a database of its own on this test's PostgreSQL.
 */
@SpringBootTest(properties = {"tokenflow.roles=web,live"})
@ActiveProfiles("test")
class ChaosE2ETests {

    @Autowired Environment environment;

    @Test
    void everyRunCompletesOnceWhileAppInstancesAreKilledInTurn() throws Exception {
        Chaos.Figures figures = Chaos.killApps(postgres(), user(), 300, Duration.ofSeconds(15));
        System.out.println(Chaos.Figures.HEADER + "\n" + figures.line());

        assertThat(figures.completed()).isEqualTo(figures.started());
        assertThat(figures.duplicated()).isZero();
        assertThat(figures.gaps()).isZero();
        assertThat(figures.settled()).isNotNull();
    }

    @Test
    void everyAnsweredStartEndsAfterRedisIsFlushedMidLoad() throws Exception {
        Chaos.Figures figures = Chaos.redisFault(postgres(), user(), 200, "c", Chaos.RedisFault.FLUSH);
        System.out.println(Chaos.Figures.HEADER + "\n" + figures.line());

        assertThat(figures.stuck()).isZero();
        assertThat(figures.failedWithout()).isZero();
        assertThat(figures.vanished()).as("runs answered 201 that nothing knows").isZero();
        assertThat(figures.completed() + figures.failedWithReason()).isEqualTo(figures.started());
        assertThat(figures.duplicated()).isZero();
        assertThat(figures.gaps()).isZero();
    }

    @Test
    void onePoisonedEntryFailsOnlyItsRunAndEveryOtherRunCompletes() throws Exception {
        Chaos.Figures figures = Chaos.poisonedEntry(postgres(), user(), 200);
        System.out.println(Chaos.Figures.HEADER + "\n" + figures.line());

        assertThat(figures.completed()).isEqualTo(figures.started() - 1);
        assertThat(figures.failedWithReason()).isOne();
        assertThat(figures.note()).contains("failed with the quarantine named, 1 entry in the quarantine");
        assertThat(figures.stuck()).isZero();
        assertThat(figures.duplicated()).isZero();
    }

    private String postgres() {
        return environment.getProperty("spring.datasource.url");
    }

    private String user() {
        return environment.getProperty("spring.datasource.username", "postgres");
    }
}
