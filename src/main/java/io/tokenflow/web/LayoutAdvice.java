package io.tokenflow.web;

import java.security.Principal;

import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** Gives every page the signed-in user's name for the layout's header ({@code null} when nobody is signed in). */
@ControllerAdvice
class LayoutAdvice {

    static final String CURRENT_USER = "currentUser";

    @ModelAttribute(CURRENT_USER)
    String currentUser(Principal principal) {
        return nameOf(principal);
    }

    static String nameOf(Principal principal) {
        return principal == null ? null : principal.getName();
    }
}
