package io.tokenflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * A test against the whole application with a real PostgreSQL and Redis: embedded, ephemeral ones by default, or
 * the external servers named by {@code SPRING_DATASOURCE_URL} / {@code SPRING_DATA_REDIS_HOST}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@ActiveProfiles("test")
public @interface IntegrationTest {
}
