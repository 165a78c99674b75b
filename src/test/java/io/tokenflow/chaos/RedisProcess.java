package io.tokenflow.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import redis.embedded.core.ExecutableProvider;

/**
 * A Redis server of the chaos suite's own (the binary the embedded-redis library ships), with an append-only file
 * synced every second as in production, that the suite kills with SIGKILL, restarts from its file, flushes, or
 * restarts after cutting the file's last second (what {@code appendfsync everysec} may lose on a power loss).
 */
final class RedisProcess implements AutoCloseable {

    private final Path directory;
    private final int port;
    private final Deque<long[]> aofSizes = new ArrayDeque<>();
    private Process process;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    RedisProcess(Path directory) {
        this.directory = directory;
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        start();
        Thread sampler = new Thread(this::sampleAofSize, "aof-sizes");
        sampler.setDaemon(true);
        sampler.start();
    }

    int port() {
        return port;
    }

    synchronized RedisCommands<String, String> commands() {
        if (connection == null || !connection.isOpen()) {
            client = RedisClient.create("redis://127.0.0.1:" + port);
            connection = client.connect();
        }
        return connection.sync();
    }

    void start() {
        try {
            Files.createDirectories(directory);
            process = new ProcessBuilder(List.of(ExecutableProvider.newJarResourceProvider().get().getAbsolutePath(),
                    "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", directory.toString(),
                    "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
                            directory.resolve("redis.log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long until = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < until) {
            try {
                if ("PONG".equals(commands().ping())) {
                    return;
                }
            } catch (RuntimeException notYet) {
                closeClient();
                Chaos.pause(100);
            }
        }
        throw new IllegalStateException("Expected Redis to answer on port " + port + " within 60 s, but it did not");
    }

    /** SIGKILL: what a crashed or power-cut server does, the append-only file as far as it was written. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeClient();
    }

    /**
     * Kills the server and cuts its append-only file back to where it was about a second ago, as the file of a server
     * that lost power with {@code appendfsync everysec}; returns the bytes cut.
     */
    long killAndCutLastSecond() {
        Path aof = newestAof();
        long keep;
        synchronized (aofSizes) {
            long now = System.currentTimeMillis();
            keep = aofSizes.stream().filter(size -> now - size[0] >= 1_000).mapToLong(size -> size[1]).max()
                    .orElse(0);
        }
        kill();
        try (FileChannel file = FileChannel.open(aof, StandardOpenOption.WRITE)) {
            long cut = Math.max(0, file.size() - keep);
            file.truncate(keep);
            return cut;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void sampleAofSize() {
        while (true) {
            try {
                long size = Files.size(newestAof());
                synchronized (aofSizes) {
                    aofSizes.addLast(new long[] {System.currentTimeMillis(), size});
                    while (aofSizes.size() > 50) {
                        aofSizes.removeFirst();
                    }
                }
            } catch (IOException | RuntimeException notThereYet) {
                // the file appears with the first write
            }
            Chaos.pause(100);
        }
    }

    /** The file Redis appends to: the newest incremental file of Redis 7, or the single file of older versions. */
    private Path newestAof() {
        Path multiPart = directory.resolve("appendonlydir");
        if (Files.isDirectory(multiPart)) {
            try (Stream<Path> files = Files.list(multiPart)) {
                return files.filter(file -> file.getFileName().toString().endsWith(".incr.aof"))
                        .max(Comparator.comparingLong(RedisProcess::sequence)).orElseThrow();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return directory.resolve("appendonly.aof");
    }

    private static long sequence(Path incremental) {
        String name = incremental.getFileName().toString();
        String withoutSuffix = name.substring(0, name.length() - ".incr.aof".length());
        return Long.parseLong(withoutSuffix.substring(withoutSuffix.lastIndexOf('.') + 1));
    }

    private synchronized void closeClient() {
        if (client != null) {
            client.shutdown();
            client = null;
            connection = null;
        }
    }

    @Override
    public void close() {
        kill();
    }
}
