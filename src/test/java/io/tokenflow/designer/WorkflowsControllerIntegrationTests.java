package io.tokenflow.designer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.core.io.ClassPathResource;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.AbstractMockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;

/** The workflows pages, rendered by the whole application against a real PostgreSQL. */
@IntegrationTest
@AutoConfigureMockMvc
class WorkflowsControllerIntegrationTests {

    @Autowired
    MockMvc mvc;

    @Test
    void listRendersWorkflowsInTheLayout() throws Exception {
        String name = created("listed");
        mvc.perform(signedIn(get("/workflows")))
                .andExpect(status().isOk())
                .andExpect(view().name("designer/workflows"))
                .andExpect(content().string(allOf(containsString(name), containsString("<nav aria-label=\"Main\">"),
                        containsString("Signed in as <strong>dana</strong>"), containsString("name=\"_csrf\""),
                        // under its content hash (cached for a year)
                        matchesPattern("(?s).*/dist/htmx\\.min-[0-9a-f]{32}\\.js\" defer></script>.*"))));
    }

    @Test
    void htmxSearchAnswersOnlyTheTableFragment() throws Exception {
        String name = created("needle");
        mvc.perform(signedIn(get("/workflows").param("q", name).header("HX-Request", "true")))
                .andExpect(status().isOk())
                .andExpect(view().name("designer/workflows :: workflow-table"))
                .andExpect(content().string(allOf(startsWith("<section id=\"workflow-table\""),
                        containsString(name), not(containsString("<html")), not(containsString("New workflow")))));
    }

    @Test
    void createsMinimalWorkflowFromTheFormAndRedirectsToIt() throws Exception {
        String name = unique("created");
        String location = mvc.perform(signedIn(post("/workflows")).param("name", name).param("description", "From the form"))
                .andExpect(status().is3xxRedirection())
                .andExpect(redirectedUrlPattern("/workflows/*"))
                .andReturn().getResponse().getRedirectedUrl();
        mvc.perform(signedIn(get(location)))
                .andExpect(status().isOk())
                .andExpect(view().name("designer/workflow"))
                .andExpect(content().string(allOf(containsString(name), containsString("From the form"),
                        containsString("<code>start</code>"), containsString("&quot;noop&quot;"))));
    }

    @Test
    void showsTakenNameNextToTheNameField() throws Exception {
        String name = created("taken");
        String html = html(mvc.perform(signedIn(post("/workflows")).param("name", name))
                .andExpect(status().isConflict()).andReturn());
        assertThat(element(html, "create-name")).contains("aria-invalid=\"true\"", "value=\"" + name + "\"",
                "aria-describedby=\"create-name-error\"");
        assertThat(element(html, "create-name-error")).contains("&#39;" + name + "&#39; is already taken");
    }

    @Test
    void invalidPasteShowsProblemsGroupedByNodeAndKeepsTheInput() throws Exception {
        String json = fixture("invalid/edge-to-unknown-node").replace("edge-to-unknown-node", unique("broken"));
        MvcResult result = mvc.perform(signedIn(post("/workflows/paste")).param("json", json))
                .andExpect(status().isUnprocessableContent()).andReturn();
        ImportForm form = (ImportForm) result.getModelAndView().getModel().get("importForm");
        assertThat(form.json()).isEqualTo(json);
        assertThat(form.problems().nodes()).singleElement().satisfies(group -> {
            assertThat(group.nodeId()).isEqualTo("B");
            assertThat(group.diagnostics()).extracting(d -> d.pointer(), d -> d.code())
                    .containsExactly(tuple("/edges/1/to", "unknown-node"));
        });
        String html = html(result);
        assertThat(html.substring(html.indexOf("id=\"problems-node-B\""))).contains("Node <code>B</code>",
                "no node &#39;nowhere&#39;", "/edges/1/to");
        assertThat(element(html, "paste-json")).contains("&quot;nowhere&quot;");
    }

    @Test
    void pastedCallOfAnUnknownWorkflowIsRefusedAtItsPointer() throws Exception {
        String nobody = unique("nobody");
        String json = "{\"name\": \"" + unique("order") + "\", \"nodes\": [{\"id\": \"bill\", \"type\": \"workflow\", "
                + "\"workflow\": {\"name\": \"" + nobody + "\", \"tag\": \"prod\"}}]}";
        MvcResult result = mvc.perform(signedIn(post("/workflows/paste")).param("json", json))
                .andExpect(status().isUnprocessableContent()).andReturn();
        ImportForm form = (ImportForm) result.getModelAndView().getModel().get("importForm");
        assertThat(form.problems().nodes()).singleElement().satisfies(group -> {
            assertThat(group.nodeId()).isEqualTo("bill");
            assertThat(group.diagnostics()).extracting(d -> d.pointer(), d -> d.code())
                    .containsExactly(tuple("/nodes/0/workflow/name", "unknown-workflow"));
        });
        assertThat(html(result)).contains("Expected a workflow named &#39;" + nobody + "&#39; to call");
    }

    @Test
    void importsUploadedSeedPlanUnderAnotherName() throws Exception {
        String name = unique("plan");
        MockMultipartFile file = new MockMultipartFile("file", "research.plan.json", "application/json",
                fixture("valid/research-and-write.plan").getBytes(StandardCharsets.UTF_8));
        String location = mvc.perform(signedIn(multipart("/workflows/import").file(file)).param("saveAs", name))
                .andExpect(status().is3xxRedirection())
                .andReturn().getResponse().getRedirectedUrl();
        mvc.perform(signedIn(get(location))).andExpect(content().string(allOf(containsString(name),
                containsString("<code>step-2</code>"))));
    }

    @Test
    void onlyDesignersChangeWorkflowsThroughThePages() throws Exception {
        String name = WorkflowsApiIntegrationTests.unique("approver-made");
        mvc.perform(post("/workflows").param("name", name).with(user("ann").roles("APPROVER")).with(csrf()))
                .andExpect(status().isForbidden());
        mvc.perform(get("/workflows").with(user("ann").roles("APPROVER"))).andExpect(status().isOk());
    }

    @Test
    void unknownWorkflowRendersTheErrorPage() throws Exception {
        String html = html(mvc.perform(signedIn(get("/workflows/" + UUID.randomUUID())))
                .andExpect(status().isNotFound())
                .andExpect(view().name("error/problem"))
                .andReturn());
        assertThat(html).contains("<nav aria-label=\"Main\">", "Signed in as <strong>dana</strong>");
        assertThat(html.substring(html.indexOf("id=\"problem\""))).contains("Error 404", ">Not found</h1>",
                "Expected a workflow with id or name");
    }

    private String created(String prefix) throws Exception {
        String name = unique(prefix);
        mvc.perform(signedIn(post("/workflows")).param("name", name)).andExpect(status().is3xxRedirection());
        return name;
    }

    private static <B extends AbstractMockHttpServletRequestBuilder<B>> B signedIn(B request) {
        return request.with(user("dana").roles("DESIGNER")).with(csrf());
    }

    private static String html(MvcResult result) throws IOException {
        return result.getResponse().getContentAsString(StandardCharsets.UTF_8);
    }

    /** The element with that id, from its start tag to the end of the page's next closing tag. */
    private static String element(String html, String id) {
        int start = html.lastIndexOf('<', html.indexOf("id=\"" + id + "\""));
        return html.substring(start, html.indexOf("</", start) + 2);
    }

    private static String fixture(String name) throws IOException {
        return new ClassPathResource("workflows/" + name + ".json").getContentAsString(StandardCharsets.UTF_8);
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
