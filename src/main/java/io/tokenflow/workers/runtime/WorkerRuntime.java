package io.tokenflow.workers.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.workers.TaskHandlers;
import io.tokenflow.workers.WorkerSettings;

/**
 * Starts the consumer threads of every worker type that has a handler (as many as configured per type, times the
 * shards on a cluster: {@link TaskConsumerFactory#create}) and stops them gracefully: each finishes its current batch, so no token is left half-done.
 */
@Component
class WorkerRuntime implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WorkerRuntime.class);

    private final WorkerSettings settings;
    private final TaskHandlers handlers;
    private final TaskConsumerFactory consumers;
    private final List<TaskConsumer> running = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private LeaseRenewer leases;
    private StartAnnouncer starts;

    WorkerRuntime(WorkerSettings settings, TaskHandlers handlers, TaskConsumerFactory consumers) {
        this.settings = settings;
        this.handlers = handlers;
        this.consumers = consumers;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || isRunning()) {
            return;
        }
        for (String type : new TreeSet<>(handlers.types())) {
            int concurrency = settings.concurrencyOf(type);
            if (concurrency > 0) {
                startConsumers(type, concurrency);
            }
        }
        if (!running.isEmpty()) {
            leases = consumers.leaseRenewer(running);
            leases.start();
            starts = consumers.startAnnouncer(running);
            starts.start();
        }
        log.info("Started {} worker threads for {}", threads.size(), new TreeSet<>(handlers.types()));
    }

    private void startConsumers(String type, int concurrency) {
        List<TaskConsumer> created = consumers.create(type, concurrency);
        for (int i = 0; i < created.size(); i++) {
            Thread thread = new Thread(created.get(i), "worker-" + type + "-" + i);
            thread.setDaemon(true);
            running.add(created.get(i));
            threads.add(thread);
            thread.start();
        }
    }

    @Override
    public void stop(Runnable callback) {
        List<Thread> stopping = signalStop();
        Thread joiner = new Thread(() -> {
            stopping.forEach(WorkerRuntime::join);
            callback.run();
        }, "worker-shutdown");
        joiner.setDaemon(true);
        joiner.start();
    }

    @Override
    public void stop() {
        signalStop().forEach(WorkerRuntime::join);
    }

    @Override
    public synchronized boolean isRunning() {
        return !threads.isEmpty();
    }

    private synchronized List<Thread> signalStop() {
        if (leases != null) {
            leases.stop();
            leases = null;
        }
        if (starts != null) {
            starts.stop();
            starts = null;
        }
        running.forEach(TaskConsumer::stop);
        List<Thread> stopping = List.copyOf(threads);
        running.clear();
        threads.clear();
        return stopping;
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
