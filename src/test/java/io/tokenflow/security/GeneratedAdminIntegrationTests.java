package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.IntegrationTest;

/**
 * Runs the initialiser against an emptied {@code users} table inside the test's transaction, which is rolled back:
 * other tests' users are back afterwards. MockMvc runs on the test thread, so sign-in sees the uncommitted admin.
 */
@IntegrationTest
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
@Transactional
class GeneratedAdminIntegrationTests {

    private static final Pattern BANNER = Pattern.compile("Using generated password for user 'admin': (\\S+)");

    @Autowired
    UserAccountsInitializer initializer;
    @Autowired
    UserAccountRepository users;
    @Autowired
    PasswordEncoder passwordEncoder;
    @Autowired
    MockMvc mvc;
    @Autowired
    Clock clock;

    @Test
    void createsAdminWithAPasswordLoggedOnceThatSignsIn(CapturedOutput output) throws Exception {
        users.deleteAllInBatch();
        int printedBefore = output.getAll().length();

        initializer.initialise();

        Matcher banner = BANNER.matcher(output.getAll().substring(printedBefore));
        assertThat(banner.find()).as("the generated password is logged").isTrue();
        String password = banner.group(1);
        assertThat(password).hasSizeGreaterThanOrEqualTo(20);
        UserAccount admin = users.findById("admin").orElseThrow();
        assertThat(admin.roles()).containsExactlyInAnyOrder(Role.values());
        assertThat(admin.source()).isEqualTo(UserSource.GENERATED);
        assertThat(admin.passwordHash()).startsWith("{bcrypt}").doesNotContain(password);
        assertThat(passwordEncoder.matches(password, admin.passwordHash())).isTrue();
        TestAccounts.signIn(mvc, "admin", password);
    }

    @Test
    void printsNothingOnLaterStartsBecauseTheAdminExists(CapturedOutput output) {
        users.deleteAllInBatch();
        initializer.initialise();
        String hash = users.findById("admin").orElseThrow().passwordHash();
        int printedBefore = output.getAll().length();

        initializer.initialise();

        assertThat(output.getAll().substring(printedBefore)).doesNotContain("Using generated password");
        assertThat(users.findById("admin").orElseThrow().passwordHash()).isEqualTo(hash);
        assertThat(users.count()).isEqualTo(1);
    }

    @Test
    void generatesNoAdminWhenOtherUsersExist(CapturedOutput output) {
        users.deleteAllInBatch();
        String someone = new TestAccounts(users, clock).create(Role.DESIGNER);
        int printedBefore = output.getAll().length();

        initializer.initialise();

        assertThat(users.findAll()).extracting(UserAccount::username).containsExactly(someone);
        assertThat(output.getAll().substring(printedBefore)).doesNotContain("Using generated password");
    }
}
