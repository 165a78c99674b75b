package io.tokenflow.coordinator;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.cas.CasStore;
import io.tokenflow.engine.ir.IrCompensator;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.logging.RunLogContext;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.signing.SignalSignature;
import io.tokenflow.signing.SignalVerifier;
import io.tokenflow.tenancy.RunTenants;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the coordinator's consumer threads ({@code tokenflow.coordinator.threads}; spread over the shards on a
 * cluster, see {@link StreamConsumer}): they read the shards' completions streams in the coordinators' consumer group,
 * route each signal, then acknowledge and delete what they handled. Entries left pending by a dead coordinator are
 * taken over after {@code claimIdle}.
 */
@Component
class CoordinatorRuntime implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(CoordinatorRuntime.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final CompletionRouter router;
    private final JoinDispatcher joins;
    private final NodeStarts starts;
    private final RejectedSignals rejected;
    private final Signals signals;
    private final LuaScripts scripts;
    private final RunTenants runTenants;
    private final SignalVerifier verifier;
    private final RunPlans plans;
    private final CasStore cas;
    private volatile StreamConsumer consumer;

    CoordinatorRuntime(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, CompletionRouter router,
                       JoinDispatcher joins, NodeStarts starts, RejectedSignals rejected, LuaScripts scripts,
                       JsonMapper json, SignalVerifier verifier, RunPlans plans, RunTenants runTenants, CasStore cas) {
        this.runTenants = runTenants;
        this.cas = cas;
        this.verifier = verifier;
        this.plans = plans;
        this.starts = starts;
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.router = router;
        this.joins = joins;
        this.rejected = rejected;
        this.signals = new Signals(json);
        this.scripts = scripts;
    }

    @Override
    public void start() {
        if (!settings.enabled()) {
            return;
        }
        List<String> streams = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            streams.add(keys.completionsStream(shard));
        }
        String instance = ManagementFactory.getRuntimeMXBean().getName().replace('@', '-');
        consumer = new StreamConsumer(redis, streams, RedisKeys.COORDINATORS_GROUP, "coordinator-" + instance,
                settings.threads(), settings.batchSize(), settings.block(), settings.claimIdle(),
                settings.claimInterval(), this::handle);
        consumer.start("tokenflow-coordinator");
        log.info("Coordinator started: " + consumer.threads() + " threads on " + streams + "; this instance's built-in workers route their completions " + (settings.routeLocalCompletions() ? "in-process"
                : "through the completions stream") + " (tokenflow.coordinator.route-local-completions)");
    }

    /**
     * Handles a batch: completions are prepared in Java and their Lua steps sent pipelined on the consumer's own
     * connection, then settled in order; joins and malformed entries are handled one by one.
     */
    private List<StreamMessage<String, String>> handle(List<StreamMessage<String, String>> batch,
                                                       DedicatedConnection connection) {
        List<StreamMessage<String, String>> done = new ArrayList<>(batch.size());
        List<Sent> sent = new ArrayList<>(batch.size());
        RedisClusterAsyncCommands<String, String> async = connection.async();
        for (StreamMessage<String, String> message : batch) {
            int shard = shardOf(message.getStream());
            try (RunLogContext context = contextOf(message)) {
                SignalVerifier.Verdict verdict = verifier.check(message.getId(), message.getBody());
                Signal signal = verdict.refusal() != null ? null : signals.parse(message.getId(), message.getBody());
                String refusal = verdict.refusal() != null ? verdict.refusal() : typeRefusal(verdict, signal,
                        message.getBody());
                if (refusal == null && signal instanceof Signal.Completion completion
                        && completion.outputRef() != null) {
                    refusal = outputRefusal(completion);
                }
                if (refusal != null) {
                    rejected.record(shard, new Signal.Malformed(message.getId(), message.getBody(), refusal));
                    done.add(message);
                    continue;
                }
                if (signal instanceof Signal.Completion completion) {
                    router.prepare(completion, shard).ifPresentOrElse(
                            prepared -> sent.add(new Sent(message, prepared, scripts.routeCompletion().send(async,
                                    prepared.step().keys(), prepared.step().args()))),
                            () -> done.add(message));
                } else if (signal instanceof Signal.Started started) {
                    starts.record(started, shard);
                    done.add(message);
                } else if (signal instanceof Signal.JoinReady join) {
                    joins.dispatch(join);
                    done.add(message);
                } else {
                    rejected.record(shard, (Signal.Malformed) signal);
                    done.add(message);
                }
            } catch (RuntimeException e) {
                log.error("Completion entry " + message.getId() + " could not be handled; it stays pending", e);
            }
        }
        for (Sent step : sent) {
            settle(step, connection, done);
        }
        return done;
    }

    private void settle(Sent step, DedicatedConnection connection,
                        List<StreamMessage<String, String>> done) {
        try (RunLogContext context = contextOf(step.message())) {
            long reply = scripts.routeCompletion().settle(step.reply(), connection.sync(),
                    step.prepared().step().keys(), step.prepared().step().args());
            router.finish(step.prepared(), reply);
            done.add(step.message());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("Routing completion " + step.message().getId() + " failed; it stays pending", e);
        }
    }

    /** The run, node and token a signal names, for the lines logged while it is handled. */
    private static RunLogContext contextOf(StreamMessage<String, String> message) {
        Map<String, String> body = message.getBody();
        return RunLogContext.of(body.get("run"), body.get("node"), body.get("token"), null);
    }

    /**
     * Why a signal is refused because its key may not report on its run (a key of another tenant) or on its node's
     * worker type (a key limited to some node types), or null. An unknown run or node passes here: routing refuses it
     * as any such signal.
     */
    private String typeRefusal(SignalVerifier.Verdict verdict, Signal signal, Map<String, String> fields) {
        if (verdict.nodeTypes() == null && verdict.tenant() == null) {
            return null;
        }
        UUID run;
        String node;
        if (signal instanceof Signal.Completion completion) {
            run = completion.run();
            node = completion.node();
        } else if (signal instanceof Signal.Started started) {
            run = started.run();
            node = started.node();
        } else {
            return null;
        }
        Optional<RunPlan> plan = plans.find(run);
        if (plan.isEmpty()) {
            return null;
        }
        String keyId = fields.get(SignalSignature.KEY);
        if (verdict.tenant() != null) {
            String tenant = runTenants.ofWorkflow(plan.get().workflow().workflowId()).orElse(null);
            String refusal = verdict.refusalForTenant(keyId, run, tenant);
            if (refusal != null) {
                return refusal;
            }
        }
        String type = workerType(plan.get(), node);
        return type == null ? null : verdict.refusalFor(keyId, node, type);
    }

    /**
     * Why a completion's {@code output_ref} is refused: it must name content its run's tenant stored (workers read
     * and write CAS through the run's tenant), so that a worker cannot hand one tenant's run another tenant's content.
     * Null when it may pass; an unknown run passes here, as routing refuses it.
     */
    private String outputRefusal(Signal.Completion completion) {
        Optional<RunPlan> plan = plans.find(completion.run());
        if (plan.isEmpty()) {
            return null;
        }
        String tenant = runTenants.requireOfWorkflow(plan.get().workflow().workflowId());
        return cas.owns(tenant, completion.outputRef()) ? null : "Expected output_ref to name content stored for "
                + "tenant '" + tenant + "' (its run's), but " + completion.outputRef() + " is none of its";
    }

    /** The worker type whose stream the node's tokens go to (a compensator's own), or null for an unknown node. */
    private static String workerType(RunPlan plan, String node) {
        String compensated = IrCompensator.compensated(node);
        if (compensated != null) {
            IrCompensator compensator = plan.workflow().ir().compensators().get(compensated);
            return compensator == null ? null : compensator.worker();
        }
        IrNode ir = plan.workflow().node(node);
        return ir == null ? null : ir.taskWorker();
    }

    private int shardOf(String stream) {
        for (int shard = 0; shard < keys.shards(); shard++) {
            if (keys.completionsStream(shard).equals(stream)) {
                return shard;
            }
        }
        throw new IllegalStateException("Expected a completions stream, but read " + stream);
    }

    /** A completion whose Lua step was sent and awaits its reply. */
    private record Sent(StreamMessage<String, String> message, CompletionRouter.Prepared prepared,
                        RedisFuture<Long> reply) {
    }

    @Override
    public void stop() {
        StreamConsumer stopping = consumer;
        if (stopping != null) {
            stopping.stop();
            consumer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return consumer != null;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }
}
