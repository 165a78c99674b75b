package io.tokenflow.approvals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.TestWorkflows;
import io.tokenflow.designer.CreateWorkflow;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/approvals} in pages, as a script reads it: a person named approver of 205 pending approvals (and 3
 * decided) gets all of them, oldest first, over the pages (it got the oldest 200 and no way to the rest); a page or
 * size out of range is refused naming the parameter. The caller is an operator: other tests' approvals name
 * {@code role:approver}, which {@code mine=true} would list too.
 */
@SpringBootTest(properties = {"tokenflow.supervisor.enabled=false", "tokenflow.live.enabled=false",
        "tokenflow.coordinator.enabled=false", "tokenflow.workers.enabled=false"})
@AutoConfigureMockMvc
@ActiveProfiles("test")
class ApprovalsApiPagingIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int PENDING = 205;

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired CreateWorkflow creating;

    private final String approver = "pager-" + UUID.randomUUID().toString().substring(0, 8);
    private UUID run;

    @BeforeEach
    void storeApprovals() {
        run = TestWorkflows.runningRunRow(creating, jdbc);
        Instant now = Instant.now();
        for (int i = 0; i < PENDING + 3; i++) {
            boolean decided = i >= PENDING;
            jdbc.sql("insert into approvals (id, run_id, node_id, token_id, status, approvers, title, created_at, "
                            + "decided_at, decision, decided_by)"
                            + " values (?, ?, 'approve', ?, ?, cast(? as jsonb), ?, ?, ?, ?, ?)")
                    .params(UUID.randomUUID(), run, "t-" + i, decided ? "APPROVED" : "PENDING",
                            "[\"" + approver + "\"]", "#" + i,
                            Timestamp.from(now.minus(Duration.ofMinutes(PENDING + 3 - i))),
                            decided ? Timestamp.from(now.minus(Duration.ofSeconds(PENDING + 3 - i))) : null,
                            decided ? "approve" : null, decided ? approver : null).update();
        }
    }

    /** The database is shared with the tests after this one: 205 pending approvals would fill their first pages. */
    @AfterEach
    void deleteApprovals() {
        jdbc.sql("delete from approvals where run_id = ?").param(run).update();
    }

    @Test
    void aScriptReadsEveryPendingApprovalOldestFirstPageByPage() throws Exception {
        List<String> firstPage = titles("?mine=true");
        assertThat(firstPage).hasSize(200).startsWith("#0", "#1").endsWith("#199");
        assertThat(titles("?mine=true&page=1")).containsExactly("#200", "#201", "#202", "#203", "#204");
        assertThat(titles("?mine=true&page=2")).isEmpty();

        List<String> all = new ArrayList<>();
        for (int page = 0; ; page++) {
            List<String> titles = titles("?mine=true&size=60&page=" + page);
            all.addAll(titles);
            if (titles.size() < 60) {
                break;
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < PENDING; i++) {
            expected.add("#" + i);
        }
        assertThat(all).isEqualTo(expected);
        assertThat(titles("?status=decided&mine=true&size=2")).containsExactly("#207", "#206");
        assertThat(titles("?status=decided&mine=true&size=2&page=1")).containsExactly("#205");
    }

    @Test
    void refusesAPageOrSizeOutOfRangeNamingIt() throws Exception {
        mvc.perform(get("/api/v1/approvals?size=0").with(user(approver).roles("OPERATOR")))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("query:size"))
                .andExpect(jsonPath("$.detail").value("Expected size between 1 and 500, but found 0"));
        mvc.perform(get("/api/v1/approvals?size=501").with(user(approver).roles("OPERATOR")))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("query:size"));
        mvc.perform(get("/api/v1/approvals?page=-1").with(user(approver).roles("OPERATOR")))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("query:page"))
                .andExpect(jsonPath("$.detail").value("Expected page >= 0, but found -1"));
    }

    private List<String> titles(String query) throws Exception {
        String body = mvc.perform(get("/api/v1/approvals" + query).with(user(approver).roles("OPERATOR")))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        List<String> titles = new ArrayList<>();
        for (JsonNode approval : JSON.readTree(body)) {
            titles.add(approval.get("title").asString());
        }
        return titles;
    }
}
