package io.tokenflow.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;

import org.junit.jupiter.api.Test;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class RequireOriginTests {

    private final RequireOrigin interceptor = new RequireOrigin();

    @Test
    void refusesAHandshakeWithoutAnOriginWith403() {
        MockHttpServletResponse response = new MockHttpServletResponse();

        boolean accepted = interceptor.beforeHandshake(new ServletServerHttpRequest(new MockHttpServletRequest("GET",
                "/live")), new ServletServerHttpResponse(response), null, new HashMap<>());

        assertThat(accepted).isFalse();
        assertThat(response.getStatus()).isEqualTo(403);
    }

    @Test
    void letsAHandshakeWithAnOriginOnToTheSameOriginCheck() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/live");
        request.addHeader("Origin", "http://localhost:8080");

        assertThat(interceptor.beforeHandshake(new ServletServerHttpRequest(request),
                new ServletServerHttpResponse(new MockHttpServletResponse()), null, new HashMap<>())).isTrue();
    }
}
