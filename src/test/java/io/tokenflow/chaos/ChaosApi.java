package io.tokenflow.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The suite as an API client: HTTP Basic as the configured admin, against whichever app instance is up. A start
 * carries an idempotency key and is retried with it until an instance answers, as a careful client does; every
 * answer's status is counted, so a scenario can say what the API answered during a fault.
 */
final class ChaosApi {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Supplier<List<Integer>> ports;
    private final String authorization = "Basic " + Base64.getEncoder().encodeToString((AppProcess.USER + ":"
            + AppProcess.PASSWORD).getBytes(StandardCharsets.UTF_8));
    private final Map<Integer, AtomicInteger> answers = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();

    ChaosApi(Supplier<List<Integer>> ports) {
        this.ports = ports;
    }

    /** Creates a workflow; returns its name. */
    String workflow(String document) {
        HttpResponse<String> created = send("POST", "/api/v1/workflows", document, Duration.ofSeconds(30));
        if (created.statusCode() != 201) {
            throw new IllegalStateException("Expected 201 for the workflow, but got " + created.statusCode() + ": "
                    + created.body());
        }
        return JSON.readTree(created.body()).get("name").asString();
    }

    /** Starts a run, retrying with the same idempotency key until an instance answers 201 or 200; its id. */
    UUID start(String workflow, String inputs, String idempotencyKey, Duration patience) {
        String body = "{\"workflow\": \"" + workflow + "\", \"inputs\": " + inputs + ", \"idempotencyKey\": \""
                + idempotencyKey + "\"}";
        long until = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                HttpResponse<String> started = send("POST", "/api/v1/runs", body, Duration.ofSeconds(10));
                if (started.statusCode() == 201 || started.statusCode() == 200) {
                    return UUID.fromString(JSON.readTree(started.body()).get("id").asString());
                }
            } catch (IllegalStateException unreachable) {
                // no instance answered: try again
            }
            if (System.nanoTime() > until) {
                throw new IllegalStateException("Expected a start of " + workflow + " to be accepted within "
                        + patience + ", but none was");
            }
            Chaos.pause(200);
        }
    }

    /** The status code of a read of the run (0: no instance answered). */
    int read(UUID run) {
        try {
            return send("GET", "/api/v1/runs/" + run, null, Duration.ofSeconds(10)).statusCode();
        } catch (IllegalStateException unreachable) {
            return 0;
        }
    }

    JsonNode readJson(UUID run) {
        return JSON.readTree(send("GET", "/api/v1/runs/" + run, null, Duration.ofSeconds(10)).body());
    }

    /** How many answers of each status code the API gave since the last reset. */
    Map<Integer, Integer> answers() {
        Map<Integer, Integer> counts = new java.util.TreeMap<>();
        answers.forEach((status, count) -> counts.put(status, count.get()));
        return counts;
    }

    void resetAnswers() {
        answers.clear();
    }

    private HttpResponse<String> send(String method, String path, String body, Duration timeout) {
        List<Integer> up = ports.get();
        for (int tried = 0; tried < Math.max(1, up.size()); tried++) {
            if (up.isEmpty()) {
                break;
            }
            int port = up.get(Math.floorMod(next.getAndIncrement(), up.size()));
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(timeout).header("Authorization", authorization).header("Content-Type",
                            "application/json");
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                answers.computeIfAbsent(response.statusCode(), status -> new AtomicInteger()).incrementAndGet();
                return response;
            } catch (IOException down) {
                // this instance is down (killed, starting): the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException("Expected an app instance to answer " + method + " " + path
                + ", but none did");
    }
}
