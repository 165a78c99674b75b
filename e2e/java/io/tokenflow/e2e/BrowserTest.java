package io.tokenflow.e2e;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * The whole application on a random port (embedded, ephemeral PostgreSQL and Redis), two configured users who sign
 * in through the login form (a designer, operator and approver; an admin), the {@link Gates gate} and
 * {@link Approved approved} functions, and a browser {@code Page}
 * per test.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tokenflow.security.users[0].username=" + SignIn.USERNAME,
        "tokenflow.security.users[0].password={noop}" + SignIn.PASSWORD,
        "tokenflow.security.users[0].roles=designer,operator,approver",
        "tokenflow.security.users[1].username=" + SignIn.ADMIN,
        "tokenflow.security.users[1].password={noop}" + SignIn.ADMIN_PASSWORD,
        "tokenflow.security.users[1].roles=admin"})
@ActiveProfiles("test")
@Import({Gates.class, Approved.class})
@ExtendWith(BrowserExtension.class)
@interface BrowserTest {
}
