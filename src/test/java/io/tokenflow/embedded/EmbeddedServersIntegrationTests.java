package io.tokenflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;

/** The application talks to a real PostgreSQL (migrated by Flyway) and a real Redis, and reports both healthy. */
@IntegrationTest
@AutoConfigureMockMvc
class EmbeddedServersIntegrationTests {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    MockMvc mvc;

    @Test
    void migratesTheWholeSchemaIntoARealPostgres() {
        assertThat(jdbc.sql("select version()").query(String.class).single()).startsWith("PostgreSQL");
        assertThat(jdbc.sql("select count(*) from information_schema.tables where table_schema = 'public' "
                + "and table_name in ('workflows', 'workflow_versions', 'workflow_tags', 'runs', 'run_ir_revisions', "
                + "'node_executions', 'event_log', 'run_counter_snapshots', 'approvals', 'dlq', 'cas_objects', "
                + "'node_types', 'agents', 'users', 'api_tokens')").query(Long.class).single()).isEqualTo(15L);
    }

    @Test
    void talksToARealRedis() {
        redis.opsForValue().set("tf:test:ping", "pong");
        assertThat(redis.opsForValue().get("tf:test:ping")).isEqualTo("pong");
        assertThat(redis.getConnectionFactory().getConnection().serverCommands().info("server").getProperty("redis_version"))
                .isNotBlank();
        redis.delete("tf:test:ping");
    }

    @Test
    void reportsDatabaseAndRedisUpWithoutSigningIn() throws Exception {
        mvc.perform(get("/actuator/health"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.components.db.status").value("UP"))
                .andExpect(jsonPath("$.components.redis.status").value("UP"));
    }
}
