package io.tokenflow.benchmark;

import java.util.Comparator;
import java.util.stream.Collectors;

/** Reads {@code INFO commandstats}: which commands Redis spent its time on. */
final class RedisCommandStats {

    private RedisCommandStats() {
    }

    private record Command(String name, long calls, long micros) {
    }

    /** The {@code limit} commands Redis (all its servers) spent most time on, as calls and µs per unit of work. */
    static String top(String commandStats, long units, int limit) {
        // several servers' stats (a cluster's masters) list a command once each: summed by name
        return commandStats.lines().filter(line -> line.startsWith("cmdstat_")).map(RedisCommandStats::parse)
                .collect(Collectors.toMap(Command::name, command -> command, (a, b) -> new Command(a.name(),
                        a.calls() + b.calls(), a.micros() + b.micros()))).values().stream()
                .sorted(Comparator.comparingLong(Command::micros).reversed()).limit(limit)
                .map(command -> String.format("%s %.2f calls %.1f µs", command.name(), command.calls() / (double) units,
                        command.micros() / (double) units))
                .collect(Collectors.joining(", "));
    }

    // cmdstat_hset:calls=296991,usec=384724,usec_per_call=1.30,rejected_calls=0,failed_calls=0
    private static Command parse(String line) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        long calls = 0;
        long micros = 0;
        for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
            String[] pair = field.split("=");
            if (pair[0].equals("calls")) {
                calls = Long.parseLong(pair[1]);
            } else if (pair[0].equals("usec")) {
                micros = Long.parseLong(pair[1]);
            }
        }
        return new Command(name, calls, micros);
    }
}
