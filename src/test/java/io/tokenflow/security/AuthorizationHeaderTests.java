package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class AuthorizationHeaderTests {

    private final AuthorizationHeader header = new AuthorizationHeader();

    @Test
    void readsBearerTokenWhateverTheSchemeCase() {
        ApiTokenAuthentication authentication = (ApiTokenAuthentication) header.convert(request("bearer tf_abc"));

        assertThat(authentication.secret()).isEqualTo(new ApiTokenSecret("tf_abc"));
        assertThat(authentication.isAuthenticated()).isFalse();
    }

    @Test
    void ignoresRequestsWithoutBearerToken() {
        assertThat(header.convert(request(null))).isNull();
        assertThat(header.convert(request("Basic YTpi"))).isNull();
    }

    @Test
    void exemptsOnlyRequestsCarryingBearerOrBasicCredentialsFromCsrf() {
        assertThat(AuthorizationHeader.carriesCredentials(request("Bearer tf_abc"))).isTrue();
        assertThat(AuthorizationHeader.carriesCredentials(request("Basic YTpi"))).isTrue();
        assertThat(AuthorizationHeader.carriesCredentials(request("Digest x"))).isFalse();
        assertThat(AuthorizationHeader.carriesCredentials(request(null))).isFalse();
    }

    private static MockHttpServletRequest request(String authorization) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/tokens");
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        return request;
    }
}
