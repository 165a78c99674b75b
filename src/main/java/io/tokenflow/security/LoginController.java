package io.tokenflow.security;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The sign-in page; Spring Security handles {@code POST /login} and {@code POST /logout}. */
@Controller
class LoginController {

    /**
     * What the page shows: the failure next to the form after bad credentials or when they could not be checked
     * (PostgreSQL unreachable), a notice after signing out.
     */
    record LoginView(boolean failed, boolean signedOut, boolean unavailable) {
    }

    @GetMapping("/login")
    String login(@RequestParam(required = false) String error, @RequestParam(required = false) String logout,
                 @RequestParam(required = false) String unavailable, Model model) {
        model.addAttribute("login", new LoginView(error != null, logout != null, unavailable != null));
        return "security/login";
    }
}
