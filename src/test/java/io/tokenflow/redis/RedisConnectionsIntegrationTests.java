package io.tokenflow.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import io.tokenflow.IntegrationTest;

/**
 * The application's Redis connections, on one Redis or a Redis Cluster, and connections on a factory of their own
 * (stopping the application's would stop it for every other test).
 */
@IntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class RedisConnectionsIntegrationTests {

    @Value("${spring.data.redis.host:}") String host;
    @Value("${spring.data.redis.port:0}") int port;
    @Value("${spring.data.redis.database:0}") int database;
    @Value("${spring.data.redis.cluster.nodes:}") String clusterNodes;
    @Autowired RedisConnections connections;
    @Autowired LettuceConnectionFactory applicationFactory;

    /**
     * Netty's native epoll transport (pom.xml) instead of Java NIO: fewer system calls and no selector bookkeeping per
     * round trip on the I/O threads. Lettuce picks it up by itself when the library is on the class path.
     */
    @Test
    @EnabledOnOs(value = OS.LINUX, architectures = "amd64")
    void talksToRedisOverNativeEpollOnLinux() {
        assertThat(connections.commands().ping()).isEqualTo("PONG");

        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .anyMatch(name -> name.startsWith("lettuce-epollEventLoop"))
                .noneMatch(name -> name.startsWith("lettuce-nioEventLoop"));
    }

    /**
     * On a cluster one command's keys must share a slot: each shard's stream is read on its own, the threads asked
     * for spread over the shards (not a thread per shard for each), and every shard read by one at least.
     */
    @Test
    void spreadsTheReadingThreadsOverTheShardsOnAClusterAndLetsEachReadAllOnOneRedis() {
        List<String> streams = List.of("wf.completions:{0}", "wf.completions:{1}", "wf.completions:{2}");
        List<String> zero = List.of("wf.completions:{0}");
        List<String> one = List.of("wf.completions:{1}");
        List<String> two = List.of("wf.completions:{2}");

        assertThat(connections.clustered()).isEqualTo(!clusterNodes.isEmpty());
        if (connections.clustered()) {
            assertThat(connections.readers(streams, 1)).containsExactly(zero, one, two);
            assertThat(connections.readers(streams, 3)).containsExactly(zero, one, two);
            assertThat(connections.readers(streams, 5)).containsExactly(zero, one, two, zero, one);
        } else {
            assertThat(connections.readers(streams, 1)).containsExactly(streams);
            assertThat(connections.readers(streams, 4)).containsExactly(streams, streams, streams, streams);
        }
        assertThatThrownBy(() -> connections.readers(streams, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Expected at least one reading thread, but got 0");
    }

    /** On a cluster the client learns a changed topology (failover, resharding) by itself: application.yml. */
    @Test
    void onAClusterTheClientRefreshesItsTopologyPeriodicallyAndOnRedirects() {
        Assumptions.assumeTrue(connections.clustered(), "only on a Redis Cluster (the cluster pass)");
        ClusterTopologyRefreshOptions refresh = ((ClusterClientOptions) applicationFactory.getRequiredNativeClient()
                .getOptions()).getTopologyRefreshOptions();
        assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
        assertThat(refresh.getRefreshPeriod()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(refresh.getAdaptiveRefreshTriggers()).isNotEmpty();
    }

    @Test
    void closesWithoutWarningsWhenTheFactoryStoppedFirstAsItDoesWhenTheApplicationStops(CapturedOutput output) {
        LettuceConnectionFactory factory;
        if (clusterNodes.isEmpty()) {
            RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(host, port);
            server.setDatabase(database);
            factory = new LettuceConnectionFactory(server);
        } else {
            factory = new LettuceConnectionFactory(new RedisClusterConfiguration(List.of(clusterNodes.split(","))));
        }
        factory.afterPropertiesSet();
        factory.start();
        // what this factory's connections log from here on (a cached application context paused meanwhile logs
        // warnings of its own on a cluster: not this test's)
        int before = output.getAll().length();
        RedisConnections connections = new RedisConnections(factory);
        assertThat(connections.commands().ping()).isEqualTo("PONG");
        assertThat(connections.dedicated().sync().ping()).isEqualTo("PONG");

        factory.stop();
        connections.destroy();
        factory.destroy();

        assertThat(output.getAll().substring(before)).doesNotContain("Connection is already closed");
    }
}
