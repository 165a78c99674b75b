package io.tokenflow.support;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;

import io.tokenflow.embedded.EmbeddedServersEnvironmentPostProcessor;

/**
 * The PostgreSQL and Redis the tests use (embedded, or the external ones named by {@code SPRING_DATASOURCE_URL} and
 * {@code SPRING_DATA_REDIS_HOST}), each behind a {@link TcpProxy}: an application context given {@link #register}ed
 * properties talks to the servers only through the proxies, which a test cuts and restores.
 */
public final class ProxiedServers {

    private static final Pattern JDBC_HOST_PORT = Pattern.compile("^(jdbc:postgresql://)([^/:?]+)(?::(\\d+))?(.*)$");

    private final StandardEnvironment servers;
    private final TcpProxy postgres;
    private final TcpProxy redis;

    private ProxiedServers() {
        servers = new StandardEnvironment();
        servers.getPropertySources().addFirst(new MapPropertySource("ephemeral",
                Map.of("tokenflow.embedded.ephemeral", "true")));
        new EmbeddedServersEnvironmentPostProcessor(new DeferredLogs())
                .postProcessEnvironment(servers, new SpringApplication());
        Matcher url = jdbcUrl();
        postgres = TcpProxy.to(url.group(2), url.group(3) == null ? 5432 : Integer.parseInt(url.group(3)));
        redis = TcpProxy.to(servers.getProperty("spring.data.redis.host", "127.0.0.1"),
                servers.getProperty("spring.data.redis.port", Integer.class, 6379));
    }

    /** Starts (or finds) the servers and puts a proxy before each. */
    public static ProxiedServers start() {
        return new ProxiedServers();
    }

    /** Points the datasource and Redis at the proxies. */
    public void register(DynamicPropertyRegistry registry) {
        Matcher url = jdbcUrl();
        registry.add("spring.datasource.url", () -> url.group(1) + "127.0.0.1:" + postgres.port() + url.group(4));
        registry.add("spring.datasource.username", () -> servers.getProperty("spring.datasource.username", ""));
        registry.add("spring.datasource.password", () -> servers.getProperty("spring.datasource.password", ""));
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", redis::port);
    }

    public TcpProxy postgres() {
        return postgres;
    }

    public TcpProxy redis() {
        return redis;
    }

    private Matcher jdbcUrl() {
        String url = servers.getRequiredProperty("spring.datasource.url");
        Matcher matcher = JDBC_HOST_PORT.matcher(url);
        if (!matcher.matches()) {
            throw new IllegalStateException("Expected a jdbc:postgresql://host[:port]/… URL, but got " + url);
        }
        return matcher;
    }
}
