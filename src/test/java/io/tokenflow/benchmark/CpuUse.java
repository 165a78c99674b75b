package io.tokenflow.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * CPU time used so far by the three processes of the engine: this JVM, Redis ({@code INFO cpu}) and PostgreSQL (every
 * {@code postgres} process in {@code /proc}, with the time of exited backends their postmaster collected). CPU time
 * per hop changes far less than throughput when the machine's speed drifts, so it is the figure to compare between
 * two versions of the engine.
 */
record CpuUse(long jvmNanos, long redisNanos, long postgresNanos, Map<String, Long> jvmRoles) {

    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

    /** The JVM's threads by role, told by their names (threads of no role count with the rest of the JVM). */
    private static final Map<String, String> ROLES = new LinkedHashMap<>();

    static {
        ROLES.put("tokenflow-coordinator", "coordinator");
        ROLES.put("worker-", "workers");
        ROLES.put("supervisor-events-", "supervisor");
        ROLES.put("lettuce-", "Redis client I/O");
        ROLES.put("live-", "live views");
    }

    /** The JVM's own threads by role, told by their names in {@code /proc/self/task} (they are no Java threads). */
    private static final Map<String, String> VM_ROLES = new LinkedHashMap<>();

    static {
        VM_ROLES.put("C1 CompilerThre", "JIT compiler");
        VM_ROLES.put("C2 CompilerThre", "JIT compiler");
        VM_ROLES.put("GC Thread", "garbage collector");
        VM_ROLES.put("G1 ", "garbage collector");
    }

    static CpuUse now(RedisClusterCommands<String, String> redis) {
        return new CpuUse(jvm(), redis(redis), postgres(), roles());
    }

    CpuUse since(CpuUse earlier) {
        Map<String, Long> roles = new LinkedHashMap<>();
        jvmRoles.forEach((role, nanos) -> roles.put(role, nanos - earlier.jvmRoles.getOrDefault(role, 0L)));
        return new CpuUse(jvmNanos - earlier.jvmNanos, redisNanos - earlier.redisNanos,
                postgresNanos < 0 || earlier.postgresNanos < 0 ? -1 : postgresNanos - earlier.postgresNanos, roles);
    }

    /** This reading with the CPU time of a role whose threads ended before it was taken (they are not listed then). */
    CpuUse withRole(String role, long nanos) {
        Map<String, Long> roles = new LinkedHashMap<>(jvmRoles);
        roles.put(role, nanos);
        return new CpuUse(jvmNanos, redisNanos, postgresNanos, roles);
    }

    /**
     * e.g. {@code supervisor 60 µs, coordinator 40 µs, …, rest 30 µs}: the JVM's CPU per unit of work by role (thread
     * CPU time; the JIT compiler's and garbage collector's threads read from {@code /proc} on Linux; the rest is every
     * other thread: the benchmark's probe, the connection pools, …).
     * A thread that ended between the two readings is counted in the rest.
     */
    String jvmRolesPer(long units) {
        StringBuilder text = new StringBuilder("JVM CPU per hop by role:");
        long known = 0;
        for (Map.Entry<String, Long> role : jvmRoles.entrySet()) {
            text.append(String.format(" %s %.0f µs,", role.getKey(), micros(role.getValue(), units)));
            known += role.getValue();
        }
        return text.append(String.format(" rest %.0f µs", micros(jvmNanos - known, units))).toString();
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

    private static Map<String, Long> roles() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> roles = new LinkedHashMap<>();
        ROLES.values().forEach(role -> roles.put(role, 0L));
        for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (thread == null) {
                continue; // ended meanwhile
            }
            long nanos = threads.getThreadCpuTime(thread.getThreadId());
            ROLES.forEach((prefix, role) -> {
                if (nanos > 0 && thread.getThreadName().startsWith(prefix)) {
                    roles.merge(role, nanos, Long::sum);
                }
            });
        }
        VM_ROLES.values().forEach(role -> roles.put(role, 0L));
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(task -> ProcStat.of(task).ifPresent(thread -> VM_ROLES.forEach((prefix, role) -> {
                if (thread.name().startsWith(prefix)) {
                    roles.merge(role, thread.ticks() * NANOS_PER_TICK, Long::sum);
                }
            })));
        } catch (IOException | RuntimeException notLinux) {
            VM_ROLES.values().forEach(roles::remove);
        }
        return roles;
    }

    /** The JIT compiler's CPU time in this reading (0 where {@code /proc} cannot tell). */
    long jitNanos() {
        return jvmRoles.getOrDefault("JIT compiler", 0L);
    }

    /**
     * Redis's CPU time (every server's, on a cluster), its children's included (the forks that rewrite the
     * append-only file, once they ended).
     */
    private static long redis(RedisClusterCommands<String, String> redis) {
        double seconds = RedisServers.info(redis, "cpu").lines()
                .filter(line -> line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")
                        || line.startsWith("used_cpu_user_children:") || line.startsWith("used_cpu_sys_children:"))
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
        return ProcStat.of(process).filter(stat -> stat.name().equals("postgres")
                || stat.name().startsWith("postgres:")).map(ProcStat::ticksWithChildren).orElse(0L);
    }

    /**
     * A process's or thread's {@code stat} in {@code /proc}: its name and the fields after it (state ppid … utime(14)
     * stime(15) cutime(16) cstime(17), numbered from pid = 1).
     */
    private record ProcStat(String name, String[] fields) {

        /** Empty when the process or thread ended meanwhile. */
        static Optional<ProcStat> of(Path processOrThread) {
            try {
                String stat = Files.readString(processOrThread.resolve("stat"));
                int close = stat.lastIndexOf(')');
                return Optional.of(new ProcStat(stat.substring(stat.indexOf('(') + 1, close),
                        stat.substring(close + 2).split(" ")));
            } catch (IOException | RuntimeException vanished) {
                return Optional.empty();
            }
        }

        /** User and system CPU time, in clock ticks. */
        long ticks() {
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        }

        /** {@link #ticks()} with that of ended children the process waited for. */
        long ticksWithChildren() {
            return ticks() + Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        }
    }
}
