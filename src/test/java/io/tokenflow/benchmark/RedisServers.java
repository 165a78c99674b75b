package io.tokenflow.benchmark;

import java.util.stream.Collectors;

import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * {@code INFO} and {@code CONFIG RESETSTAT} of every Redis server behind a connection: the one server, or each master
 * of a Redis Cluster (a cluster connection sends these to one node only), so that the figures count them all.
 */
final class RedisServers {

    private RedisServers() {
    }

    /** The section of every server, one after the other (sum what it lists to count them all). */
    static String info(RedisClusterCommands<String, String> redis, String section) {
        if (redis instanceof RedisAdvancedClusterCommands<String, String> cluster) {
            return cluster.upstream().commands().info(section).asMap().values().stream()
                    .collect(Collectors.joining("\n"));
        }
        return redis.info(section);
    }

    static void resetStats(RedisClusterCommands<String, String> redis) {
        if (redis instanceof RedisAdvancedClusterCommands<String, String> cluster) {
            cluster.upstream().commands().configResetstat();
        } else {
            redis.configResetstat();
        }
    }

    /** The sum of one numeric field over every server's section, e.g. {@code used_memory} of {@code memory}. */
    static long sum(RedisClusterCommands<String, String> redis, String section, String field) {
        return info(redis, section).lines().filter(line -> line.startsWith(field + ":"))
                .mapToLong(line -> Long.parseLong(line.substring(field.length() + 1).trim())).sum();
    }
}
