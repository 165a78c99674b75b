package io.tokenflow.waits;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.lettuce.core.SetArgs;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Payloads;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.RunTenants;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Delivers a signal to every run waiting for its name and correlation key, on every shard: each waiting node
 * completes with its input plus {@code signal} ({@code name}, {@code key}, {@code payload}, {@code message_id},
 * {@code sent_by}, {@code received_at}). Each wait is taken once ({@code take-wait.lua}), so two signals racing for
 * one wait complete it once. A message with an id is delivered once: the answer is kept a day under the id, and a
 * message sent again with it gets that answer back (Zeebe's message id). Signals are not buffered: a signal nobody
 * waits for is refused, and may be sent again later. A signal reaches only the runs of the tenant it is sent in, and
 * message ids are kept per tenant.
 */
@Component
class SignalDelivery {

    static final long MESSAGE_TTL_SECONDS = 24 * 3600;
    private static final String PENDING = "pending";

    private final RunTenants runTenants;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final HeldTokens held;
    private final Payloads payloads;
    private final JsonMapper json;
    private final Clock clock;

    SignalDelivery(RedisConnections redis, RedisKeys keys, HeldTokens held, Payloads payloads, RunTenants runTenants,
                   JsonMapper json, Clock clock) {
        this.runTenants = runTenants;
        this.redis = redis;
        this.keys = keys;
        this.held = held;
        this.payloads = payloads;
        this.json = json;
        this.clock = clock;
    }

    /** What a signal did: the waits it completed, or (a message sent again) what it did the first time. */
    record Delivered(String signal, String key, String messageId, List<Receiver> delivered, boolean duplicate) {

        Delivered {
            delivered = List.copyOf(delivered);
        }

        Delivered again() {
            return new Delivered(signal, key, messageId, delivered, true);
        }
    }

    /** One wait a signal completed. */
    record Receiver(UUID runId, String node) {
    }

    /** @param messageId the message's id, or {@code null}: then every send is delivered to whoever waits then */
    Delivered deliver(String name, String key, JsonNode payload, String messageId, String by) {
        String tenant = CurrentTenant.forNewRows();
        String messageKey = messageId == null ? null : keys.signalMessage(tenant, name, messageId);
        if (messageKey != null) {
            String claimed = redis.commands().set(messageKey, PENDING, SetArgs.Builder.nx().ex(MESSAGE_TTL_SECONDS));
            if (claimed == null) {
                return previous(messageKey, name, key, messageId);
            }
        }
        long now = clock.millis();
        List<Receiver> receivers = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            for (String member : redis.commands().smembers(keys.signalWaits(shard, name, key))) {
                String[] parts = member.split(" ", 2);
                UUID run = UUID.fromString(parts[0]);
                if (!runTenants.ofRun(run).map(tenant::equals).orElse(false)) {
                    continue; // another tenant's run waits for a signal of the same name and key
                }
                Optional<Wait> wait = held.find(run, parts[1]);
                if (wait.isEmpty()) {
                    redis.commands().srem(keys.signalWaits(shard, name, key), member);
                    continue;
                }
                ObjectNode signal = JsonNodeFactory.instance.objectNode().put("name", name).put("key", key);
                signal.set("payload", payload);
                signal.put("message_id", messageId).put("sent_by", by)
                        .put("received_at", Instant.ofEpochMilli(now).toString());
                if (held.deliver(run, parts[1], wait.get(), payloads.taskInput(run, output(wait.get(), signal)))) {
                    receivers.add(new Receiver(run, wait.get().node()));
                }
            }
        }
        Delivered delivered = new Delivered(name, key, messageId, receivers, false);
        if (messageKey != null) {
            if (receivers.isEmpty()) {
                redis.commands().del(messageKey);
            } else {
                redis.commands().set(messageKey, json.writeValueAsString(delivered),
                        SetArgs.Builder.xx().ex(MESSAGE_TTL_SECONDS));
            }
        }
        return delivered;
    }

    /** The node's output: its input (an object) plus {@code signal}; any other input under {@code input}. */
    private JsonNode output(Wait wait, ObjectNode signal) {
        JsonNode input = wait.inputRef() != null ? payloads.fromContext(Payloads.reference(wait.inputRef()))
                : payloads.parse(wait.input());
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        if (input.isObject()) {
            output.setAll((ObjectNode) input);
        } else {
            output.set("input", input);
        }
        output.set("signal", signal);
        return output;
    }

    private Delivered previous(String messageKey, String name, String key, String messageId) {
        String answer = redis.commands().get(messageKey);
        if (answer == null || PENDING.equals(answer)) {
            return new Delivered(name, key, messageId, List.of(), true);
        }
        return json.readValue(answer, Delivered.class).again();
    }
}
