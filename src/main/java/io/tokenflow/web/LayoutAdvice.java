package io.tokenflow.web;

import java.security.Principal;

import org.springframework.security.core.Authentication;

import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * Gives every page the signed-in user's name for the layout's header ({@code null} when nobody is signed in), and
 * whether they are an admin.
 */
@ControllerAdvice
class LayoutAdvice {

    static final String CURRENT_USER = "currentUser";

    @ModelAttribute(CURRENT_USER)
    String currentUser(Principal principal) {
        return nameOf(principal);
    }

    /** Whether the signed-in person is an admin: the layout links the people page for them. */
    @ModelAttribute("currentUserIsAdmin")
    boolean currentUserIsAdmin(Principal principal) {
        return principal instanceof Authentication authentication && authentication.getAuthorities().stream()
                .anyMatch(authority -> "ROLE_ADMIN".equals(authority.getAuthority()));
    }

    static String nameOf(Principal principal) {
        return principal == null ? null : principal.getName();
    }
}
