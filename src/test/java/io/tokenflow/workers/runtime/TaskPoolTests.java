package io.tokenflow.workers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.lettuce.core.StreamMessage;

/** The hand-over between a cluster's reading threads and its running threads, with real threads. */
class TaskPoolTests {

    private static final String STREAM = "wf.tasks:{0}:function";

    @Test
    void aBatchIsSplitOverTheThreadsWaitingSoSlowTasksReadTogetherRunSideBySide() throws Exception {
        TaskPool pool = new TaskPool();
        List<List<String>> taken = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> runners = IntStream.range(0, 4).mapToObj(i -> started(() -> {
            List<StreamMessage<String, String>> part = pool.next(Duration.ofSeconds(10));
            taken.add(part.stream().map(StreamMessage::getId).toList());
            awaitQuietly(release);
        })).toList();
        await().atMost(Duration.ofSeconds(5)).until(() -> runners.stream()
                .allMatch(t -> t.getState() == Thread.State.TIMED_WAITING));

        HeldTokens held = new HeldTokens();
        pool.handOver(batch(4), held, entries(4));

        await().atMost(Duration.ofSeconds(5)).until(() -> taken.size() == 4);
        assertThat(taken).containsExactlyInAnyOrder(List.of("1-0"), List.of("2-0"), List.of("3-0"), List.of("4-0"));
        assertThat(held.unfinishedHeldLongerThan(-1)).as("all handed over: the reader holds nothing").isEmpty();
        release.countDown();
        for (Thread runner : runners) {
            runner.join();
        }
    }

    @Test
    void withNoThreadWaitingABatchStaysWholeAndTheReaderHoldsItUntilTaken() throws Exception {
        TaskPool pool = new TaskPool();
        HeldTokens held = new HeldTokens();
        Thread reader = started(() -> pool.handOver(batch(3), held, entries(3)));
        await().atMost(Duration.ofSeconds(5)).until(() -> !held.unfinishedHeldLongerThan(-1).isEmpty());
        assertThat(held.unfinishedHeldLongerThan(-1)).isEqualTo(Map.of(STREAM, List.of("1-0", "2-0", "3-0")));

        List<StreamMessage<String, String>> part = pool.next(Duration.ZERO);
        while (part == null) {
            part = pool.next(Duration.ofMillis(100));
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(part).extracting(StreamMessage::getId).containsExactly("1-0", "2-0", "3-0");
        assertThat(held.unfinishedHeldLongerThan(-1)).isEmpty();
    }

    @Test
    void aReaderGivesUpHandingOverOnceThePoolClosesLeavingItsTokensPending() throws Exception {
        TaskPool pool = new TaskPool();
        HeldTokens held = new HeldTokens();
        Thread reader = started(() -> pool.handOver(batch(2), held, entries(2)));
        await().atMost(Duration.ofSeconds(5)).until(() -> !held.unfinishedHeldLongerThan(-1).isEmpty());
        pool.close();
        reader.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(reader.isAlive()).isFalse();
        assertThat(pool.open()).isFalse();
        assertThat(pool.next(Duration.ofMillis(10))).isNull();
    }

    private static List<StreamMessage<String, String>> batch(int size) {
        return IntStream.rangeClosed(1, size).mapToObj(i -> new StreamMessage<>(STREAM, i + "-0",
                Map.of("token", "t" + i))).toList();
    }

    private static List<TaskEntry> entries(int size) {
        return batch(size).stream().map(m -> new TaskEntry(m.getStream(), 0, m.getId(), "function", m.getBody()))
                .toList();
    }

    private static Thread started(Runnable runnable) {
        Thread thread = new Thread(runnable);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
