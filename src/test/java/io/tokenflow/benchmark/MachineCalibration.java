package io.tokenflow.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Two figures of the machine itself, taken before the engine starts, so that benchmark figures from different
 * machines of the same size can be told apart from changes of the code: how fast one thread hashes (plain CPU speed),
 * and how long a hand-off between two threads takes there and back (a wake-up and a sleep on each side: the futex
 * calls and context switches that every hand-over between a worker, the Redis client's I/O thread and a reply costs).
 * On a virtual machine whose system calls are expensive the second figure grows much more than the first.
 */
final class MachineCalibration {

    private static final int HASHED_MIB = 64;
    private static final int HAND_OFFS = 20_000;

    private MachineCalibration() {
    }

    static String describe() {
        double[] handOffs = handOffMicros();
        return String.format("machine: %s; SHA-256 on one thread %.0f MB/s; thread hand-off there and back %.1f µs "
                + "(median of %d rounds of %,d; rounds from %.1f to %.1f µs, as the two threads share a core or not)",
                cpuModel(), hashMegabytesPerSecond(), handOffs[handOffs.length / 2], handOffs.length, HAND_OFFS,
                handOffs[0], handOffs[handOffs.length - 1]);
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                    .findFirst().map(line -> line.substring(line.indexOf(':') + 1).trim()).orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU (" + e.getMessage() + ")";
        }
    }

    private static double hashMegabytesPerSecond() {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] block = new byte[1 << 20];
            for (int i = 0; i < block.length; i++) {
                block[i] = (byte) i;
            }
            for (int i = 0; i < HASHED_MIB; i++) {
                sha256.update(block); // compiled before it is timed
            }
            sha256.digest();
            long started = System.nanoTime();
            for (int i = 0; i < HASHED_MIB; i++) {
                sha256.update(block);
            }
            sha256.digest();
            return HASHED_MIB * 1.048576 / ((System.nanoTime() - started) / 1e9);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected every JVM to offer SHA-256", e);
        }
    }

    /** Each round's mean hand-off, sorted. */
    private static double[] handOffMicros() {
        double[] rounds = new double[7];
        for (int i = 0; i < rounds.length; i++) {
            rounds[i] = handOffRound();
        }
        Arrays.sort(rounds);
        return rounds;
    }

    /** One thread hands a turn to another, which hands it back; each waits parked for its turn, as a worker does. */
    private static double handOffRound() {
        Turn turn = new Turn();
        Thread echo = new Thread(() -> {
            for (int i = 0; i < HAND_OFFS; i++) {
                turn.await(1);
                turn.pass(0);
            }
        }, "calibration-echo");
        turn.other = echo;
        turn.self = Thread.currentThread();
        echo.start();
        long started = System.nanoTime();
        for (int i = 0; i < HAND_OFFS; i++) {
            turn.pass(1);
            turn.await(0);
        }
        long elapsed = System.nanoTime() - started;
        try {
            echo.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return elapsed / 1_000.0 / HAND_OFFS;
    }

    private static final class Turn {
        private volatile int holder;
        private volatile Thread self;
        private volatile Thread other;

        void pass(int to) {
            holder = to;
            LockSupport.unpark(to == 1 ? other : self);
        }

        void await(int whose) {
            while (holder != whose) {
                LockSupport.park(this);
            }
        }
    }
}
