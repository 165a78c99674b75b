package io.tokenflow.dlq;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dead-letter queue from a terminal: {@code java -jar tokenflow.jar dlq list|reprocess|discard ...}. It calls a
 * running Tokenflow's REST API ({@code --url}, or {@code TOKENFLOW_URL}; default {@code http://localhost:8080}) with an
 * API token ({@code --token}, or {@code TOKENFLOW_TOKEN}; scopes {@code runs:read}, and {@code runs:write} to move
 * entries), so it starts no application of its own. Written by hand on the JDK's HTTP client: a handful of requests
 * and flags do not warrant a command-line library.
 */
public final class DlqCommand {

    static final String USAGE = """
            Usage: java -jar tokenflow.jar dlq <command> [options]
              list [--status open|resolved|all] [--workflow W] [--node N] [--error E]
              reprocess <id>... [--input '<json>']   send parked tasks to their workers again (attempt 1)
              discard <id>...                        fail the runs of parked tasks
            Options: --url <base url> (TOKENFLOW_URL, default http://localhost:8080), --token <api token>
            (TOKENFLOW_TOKEN)""";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> environment;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    DlqCommand(PrintStream out, PrintStream err, Map<String, String> environment) {
        this.out = out;
        this.err = err;
        this.environment = environment;
    }

    /** Runs {@code args} (after the leading {@code dlq}) and exits with its status. */
    public static void main(String[] args) {
        System.exit(new DlqCommand(System.out, System.err, System.getenv()).run(args));
    }

    /** @return 0 done, 1 the API refused or could not be reached, 2 a usage error */
    int run(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> words = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                if (i + 1 >= args.length) {
                    return usage("Expected a value after " + args[i]);
                }
                options.put(args[i].substring(2), args[++i]);
            } else {
                words.add(args[i]);
            }
        }
        if (!words.isEmpty() && words.get(0).equals("dlq")) {
            words.remove(0);
        }
        if (words.isEmpty()) {
            return usage("Expected a command");
        }
        String base = options.getOrDefault("url", environment.getOrDefault("TOKENFLOW_URL", "http://localhost:8080"));
        String token = options.getOrDefault("token", environment.get("TOKENFLOW_TOKEN"));
        if (token == null || token.isBlank()) {
            return usage("Expected an API token (--token or TOKENFLOW_TOKEN)");
        }
        try {
            return switch (words.get(0)) {
                case "list" -> list(base, token, options);
                case "reprocess" -> move(base, token, words.subList(1, words.size()), "reprocess",
                        options.get("input"));
                case "discard" -> move(base, token, words.subList(1, words.size()), "discard", null);
                default -> usage("Expected list, reprocess or discard, but found '" + words.get(0) + "'");
            };
        } catch (IOException e) {
            err.println("Could not reach " + base + ": " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private int list(String base, String token, Map<String, String> options) throws IOException, InterruptedException {
        StringBuilder query = new StringBuilder();
        for (String filter : List.of("status", "workflow", "node", "error")) {
            if (options.containsKey(filter)) {
                query.append(query.isEmpty() ? "?" : "&").append(filter).append('=')
                        .append(URLEncoder.encode(options.get(filter), StandardCharsets.UTF_8));
            }
        }
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/api/v1/dlq" + query)).GET(),
                token);
        if (response.statusCode() != 200) {
            return refused(response);
        }
        JsonNode entries = JSON.readTree(response.body());
        out.printf("%-36s  %-19s  %-24s  %-20s  %8s  %s%n", "ID", "PARKED", "WORKFLOW", "NODE", "ATTEMPTS", "ERROR");
        for (JsonNode entry : entries) {
            out.printf("%-36s  %-19s  %-24s  %-20s  %8d  %s%n", entry.get("id").asString(),
                    entry.get("createdAt").asString().replace('T', ' ').substring(0, 19),
                    entry.get("workflow").asString(), entry.get("node").asString(), entry.get("attempts").asInt(),
                    (entry.path("errorCode").isString() ? entry.get("errorCode").asString() + ": " : "")
                            + entry.get("error").asString());
        }
        out.println(entries.size() + (entries.size() == 1 ? " entry" : " entries"));
        return 0;
    }

    private int move(String base, String token, List<String> ids, String action, String input)
            throws IOException, InterruptedException {
        if (ids.isEmpty()) {
            return usage("Expected the ids of the entries to " + action);
        }
        String body = input == null ? "" : "{\"input\": " + input + "}";
        int status = 0;
        for (String id : ids) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/api/v1/dlq/"
                            + URLEncoder.encode(id, StandardCharsets.UTF_8) + "/" + action))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)), token);
            if (response.statusCode() == 202) {
                out.println((action.equals("reprocess") ? "Reprocessed " : "Discarded ") + id);
            } else {
                err.print(id + ": ");
                status = refused(response);
            }
        }
        return status;
    }

    private HttpResponse<String> send(HttpRequest.Builder request, String token)
            throws IOException, InterruptedException {
        return http.send(request.header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private int refused(HttpResponse<String> response) {
        String detail = response.body();
        try {
            JsonNode problem = JSON.readTree(response.body());
            if (problem.path("detail").isString()) {
                detail = problem.get("detail").asString();
            }
        } catch (RuntimeException notJson) {
            // the body as it is
        }
        err.println("HTTP " + response.statusCode() + ": " + detail);
        return 1;
    }

    private int usage(String problem) {
        err.println(problem);
        err.println(USAGE);
        return 2;
    }
}
