package io.tokenflow.e2e;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.TestPropertySource;

/**
 * A {@link BrowserTest} of the approvals inbox: timed-out approvals stay pending (no timeout checks run, so they show
 * as overdue), and {@code nico} signs in as a designer and operator who approves nothing.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@BrowserTest
@TestPropertySource(properties = {"tokenflow.approvals.timeout-check-interval=0s",
        "tokenflow.security.users[2].username=nico", "tokenflow.security.users[2].password={noop}nico-pass-123",
        "tokenflow.security.users[2].roles=designer,operator"})
@interface InboxBrowserTest {
}
