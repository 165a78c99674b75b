package io.tokenflow.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * A Chromium trace (as Playwright's {@code Browser.startTracing} writes it) summed up per kind of thread: each trace
 * event's self time (its duration less its children's), added over every thread of that name (the renderer main
 * threads of several pages together). What a JS profile shows only as "(program)": style, layout, paint, parsing,
 * the compositor's and the GPU process's work. The times are wall time inside the events: on a machine short of cores
 * they include what a thread waited for one, so they say where the time goes, not how much CPU it took.
 */
final class TraceSummary {

    /** The trace categories that cover a page's main thread, its compositor and the GPU process. */
    static final List<String> CATEGORIES = List.of("devtools.timeline", "disabled-by-default-devtools.timeline",
            "v8.execute", "blink", "cc", "blink.user_timing", "loading", "toplevel", "gpu", "viz");

    private TraceSummary() {
    }

    /** Self time in ms by event name, per thread name, for the threads {@code threadNames} lists. */
    static Map<String, Map<String, Double>> selfTimes(Path trace, List<String> threadNames) throws IOException {
        JsonArray events = JsonParser.parseString(Files.readString(trace)).getAsJsonObject()
                .getAsJsonArray("traceEvents");
        Map<String, String> threads = new HashMap<>();
        Map<String, List<JsonObject>> byThread = new HashMap<>();
        for (var element : events) {
            JsonObject event = element.getAsJsonObject();
            String key = event.get("pid").getAsString() + "/" + event.get("tid").getAsString();
            String phase = event.get("ph").getAsString();
            if (phase.equals("M") && event.get("name").getAsString().equals("thread_name")) {
                threads.put(key, event.getAsJsonObject("args").get("name").getAsString());
            } else if (phase.equals("X") && event.has("dur")) {
                byThread.computeIfAbsent(key, k -> new ArrayList<>()).add(event);
            }
        }
        Map<String, Map<String, Double>> result = new LinkedHashMap<>();
        threadNames.forEach(name -> result.put(name, new HashMap<>()));
        byThread.forEach((key, complete) -> {
            Map<String, Double> self = result.get(threads.get(key));
            if (self != null) {
                addSelfTimes(complete, self);
            }
        });
        return result;
    }

    /** Prints each thread kind's time inside events and its {@code top} events by self time. */
    static void print(String title, Map<String, Map<String, Double>> selfTimes, int top) {
        System.out.println(title);
        selfTimes.forEach((thread, self) -> {
            double inside = self.values().stream().mapToDouble(Double::doubleValue).sum();
            System.out.printf("  %s: %.1f ms inside events (wall time)%n", thread, inside);
            self.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(top)
                    .forEach(entry -> System.out.printf("    %7.1f ms  %s%n", entry.getValue(), entry.getKey()));
        });
    }

    private static void addSelfTimes(List<JsonObject> complete, Map<String, Double> self) {
        complete.sort(Comparator.<JsonObject>comparingDouble(event -> event.get("ts").getAsDouble())
                .thenComparing(event -> -event.get("dur").getAsDouble()));
        Deque<double[]> stack = new ArrayDeque<>();
        Deque<String> names = new ArrayDeque<>();
        for (JsonObject event : complete) {
            double start = event.get("ts").getAsDouble();
            double duration = event.get("dur").getAsDouble();
            while (!stack.isEmpty() && stack.peek()[0] + stack.peek()[1] <= start) {
                stack.pop();
                names.pop();
            }
            if (!stack.isEmpty()) {
                self.merge(names.peek(), -Math.min(duration, stack.peek()[0] + stack.peek()[1] - start) / 1000.0,
                        Double::sum);
            }
            String name = event.get("name").getAsString();
            self.merge(name, duration / 1000.0, Double::sum);
            stack.push(new double[] {start, duration});
            names.push(name);
        }
    }
}
