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
 * Starts the threads of every worker type that has a handler ({@link TaskConsumerFactory#create}: as many consumers
 * as configured per type; on a cluster a reader per shard and as many running threads as configured) and stops them
 * gracefully: each finishes its current batch, so no token is left half-done. On a cluster the readers stop first,
 * handing over what they read, then the running threads.
 */
@Component
class WorkerRuntime implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WorkerRuntime.class);

    private final WorkerSettings settings;
    private final TaskHandlers handlers;
    private final TaskConsumerFactory consumers;
    private final List<TaskConsumer> running = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<TokenHolder> holders = new ArrayList<>();
    private final List<TaskPool> pools = new ArrayList<>();
    private final List<Thread> poolThreads = new ArrayList<>();
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
        if (!holders.isEmpty()) {
            leases = consumers.leaseRenewer(holders);
            leases.start();
            starts = consumers.startAnnouncer(holders);
            starts.start();
        }
        log.info("Started {} worker threads for {}", threads.size() + poolThreads.size(),
                new TreeSet<>(handlers.types()));
    }

    private void startConsumers(String type, int concurrency) {
        TaskConsumerFactory.TypeWorkers created = consumers.create(type, concurrency);
        holders.addAll(created.holders());
        for (int i = 0; i < created.runners().size(); i++) {
            poolThreads.add(started(created.runners().get(i), "worker-" + type + "-run-" + i));
        }
        if (created.pool() != null) {
            pools.add(created.pool());
        }
        String reader = created.pool() == null ? "worker-" + type + "-" : "worker-" + type + "-read-";
        for (int i = 0; i < created.consumers().size(); i++) {
            running.add(created.consumers().get(i));
            threads.add(started(created.consumers().get(i), reader + i));
        }
    }

    private static Thread started(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    @Override
    public void stop(Runnable callback) {
        Runnable stopping = signalStop();
        Thread joiner = new Thread(() -> {
            stopping.run();
            callback.run();
        }, "worker-shutdown");
        joiner.setDaemon(true);
        joiner.start();
    }

    @Override
    public void stop() {
        signalStop().run();
    }

    @Override
    public synchronized boolean isRunning() {
        return !threads.isEmpty();
    }

    /** Tells the readers to stop; returns what waits for them, then closes the pools and waits for their threads. */
    private synchronized Runnable signalStop() {
        if (leases != null) {
            leases.stop();
            leases = null;
        }
        if (starts != null) {
            starts.stop();
            starts = null;
        }
        running.forEach(TaskConsumer::stop);
        List<Thread> readers = List.copyOf(threads);
        List<TaskPool> closing = List.copyOf(pools);
        List<Thread> runners = List.copyOf(poolThreads);
        running.clear();
        threads.clear();
        holders.clear();
        pools.clear();
        poolThreads.clear();
        return () -> {
            readers.forEach(WorkerRuntime::join);
            closing.forEach(TaskPool::close);
            runners.forEach(WorkerRuntime::join);
        };
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
