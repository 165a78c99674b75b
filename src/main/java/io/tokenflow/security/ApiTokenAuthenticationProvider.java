package io.tokenflow.security;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;

/** Authenticates {@link ApiTokenAuthentication}s through the {@link ApiTokenVerifier}. Deliberately not a bean. */
class ApiTokenAuthenticationProvider implements AuthenticationProvider {

    private final ApiTokenVerifier verifier;

    ApiTokenAuthenticationProvider(ApiTokenVerifier verifier) {
        this.verifier = verifier;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        return verifier.verify(((ApiTokenAuthentication) authentication).secret());
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return ApiTokenAuthentication.class.isAssignableFrom(authentication);
    }
}
