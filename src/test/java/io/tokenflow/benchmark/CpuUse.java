package io.tokenflow.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * CPU time used so far by the three processes of the engine: this JVM, Redis ({@code INFO cpu}) and PostgreSQL (every
 * {@code postgres} process in {@code /proc}, with the time of exited backends their postmaster collected). CPU time
 * per hop changes far less than throughput when the machine's speed drifts, so it is the figure to compare between
 * two versions of the engine.
 */
record CpuUse(long jvmNanos, long redisNanos, long postgresNanos) {

    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

    static CpuUse now(RedisCommands<String, String> redis) {
        return new CpuUse(jvm(), redis(redis), postgres());
    }

    CpuUse since(CpuUse earlier) {
        return new CpuUse(jvmNanos - earlier.jvmNanos, redisNanos - earlier.redisNanos,
                postgresNanos < 0 || earlier.postgresNanos < 0 ? -1 : postgresNanos - earlier.postgresNanos);
    }

    /** e.g. {@code JVM 180 µs, Redis 60 µs, PostgreSQL 40 µs (280 µs)} per unit of work. */
    String per(long units, String unit) {
        return String.format("CPU per %s: JVM %.0f µs, Redis %.0f µs, PostgreSQL %s (all %.0f µs)", unit,
                micros(jvmNanos, units), micros(redisNanos, units),
                postgresNanos < 0 ? "n/a" : String.format("%.0f µs", micros(postgresNanos, units)),
                micros(jvmNanos + redisNanos + Math.max(postgresNanos, 0), units));
    }

    private static double micros(long nanos, long units) {
        return nanos / 1e3 / units;
    }

    private static long jvm() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long redis(RedisCommands<String, String> redis) {
        double seconds = redis.info("cpu").lines()
                .filter(line -> line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(':') + 1).trim())).sum();
        return (long) (seconds * 1e9);
    }

    /** -1 where {@code /proc} cannot tell (not Linux, or PostgreSQL runs as a user whose processes are hidden). */
    private static long postgres() {
        for (int attempt = 0; attempt < 3; attempt++) { // a process may end while /proc is listed
            try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
                return processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                        .mapToLong(CpuUse::postgresTicks).sum() * NANOS_PER_TICK;
            } catch (IOException | RuntimeException e) {
                // try again
            }
        }
        return -1;
    }

    private static long postgresTicks(Path process) {
        try {
            String stat = Files.readString(process.resolve("stat"));
            int close = stat.lastIndexOf(')');
            String name = stat.substring(stat.indexOf('(') + 1, close);
            if (!name.equals("postgres") && !name.startsWith("postgres:")) {
                return 0;
            }
            // fields after the name: state ppid … utime(14) stime(15) cutime(16) cstime(17), numbered from pid = 1
            String[] fields = stat.substring(close + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                    + Long.parseLong(fields[14]);
        } catch (IOException | RuntimeException vanished) {
            return 0;
        }
    }
}
