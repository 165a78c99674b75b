package io.tokenflow.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts embedded PostgreSQL and Redis before the application context is built, unless the standard Spring
 * properties (or their environment variables, e.g. {@code SPRING_DATASOURCE_URL}, {@code SPRING_DATA_REDIS_HOST})
 * name external servers, or {@code tokenflow.embedded.enabled=false}.
 *
 * <p>Servers are JVM-wide: every application context of one JVM (tests build several) shares them. They stop when
 * the JVM exits, once those contexts have closed ({@link ShutdownSequence}).
 */
public class EmbeddedServersEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String PROPERTY_SOURCE = "tokenflowEmbeddedServers";
    private final Log log;

    public EmbeddedServersEnvironmentPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(EmbeddedServersEnvironmentPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.getProperty("tokenflow.embedded.enabled", Boolean.class, true)) {
            return;
        }
        EmbeddedDataDirectory dataDir = EmbeddedDataDirectory.from(environment);
        Map<String, Object> properties = new LinkedHashMap<>();
        if (!hasAny(environment, "spring.datasource.url")) {
            EmbeddedPostgresServer postgres = EmbeddedPostgresServer.startOnce(dataDir.resolve("postgres"));
            properties.put("spring.datasource.url", postgres.jdbcUrl());
            properties.put("spring.datasource.username", EmbeddedPostgresServer.USER);
            properties.put("spring.datasource.password", "");
            log.info("Using embedded PostgreSQL at " + postgres.jdbcUrl() + " (data in " + dataDir.resolve("postgres") + ")");
        }
        if (!hasAny(environment, "spring.data.redis.url", "spring.data.redis.host", "spring.data.redis.port",
                "spring.data.redis.cluster.nodes")) {
            EmbeddedRedisServer redis = EmbeddedRedisServer.startOnce(dataDir.resolve("redis"));
            properties.put("spring.data.redis.host", EmbeddedRedisServer.HOST);
            properties.put("spring.data.redis.port", redis.port());
            log.info("Using embedded Redis at " + EmbeddedRedisServer.HOST + ":" + redis.port());
        }
        if (!properties.isEmpty()) {
            environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE, properties));
            application.addInitializers(ShutdownSequence::usedBy);
        }
    }

    private static boolean hasAny(ConfigurableEnvironment environment, String... names) {
        for (String name : names) {
            String value = environment.getProperty(name);
            if (value != null && !value.isBlank()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** Where embedded servers keep their data: persistent by default, a fresh temporary folder when ephemeral. */
    record EmbeddedDataDirectory(Path root) {
        static EmbeddedDataDirectory from(ConfigurableEnvironment environment) {
            boolean ephemeral = environment.getProperty("tokenflow.embedded.ephemeral", Boolean.class, false);
            if (ephemeral) {
                return new EmbeddedDataDirectory(EphemeralDirectory.get());
            }
            String configured = environment.getProperty("tokenflow.embedded.data-dir", "./data");
            return new EmbeddedDataDirectory(Path.of(configured).toAbsolutePath().normalize());
        }

        Path resolve(String child) {
            return root.resolve(child);
        }
    }
}
