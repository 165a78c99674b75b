package io.tokenflow.security;

import java.security.Principal;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;

/**
 * The people page ({@code /users}: create, change roles, name, password, disable or enable) and the audit log page
 * ({@code /audit}), for admins, on {@link UserAdministration} and {@link AuditLog} as the API is. A refusal is shown
 * beside the form it came from.
 */
@Controller
class UsersPage {

    private static final int AUDIT_PAGE = 200;

    private final UserAdministration users;
    private final AuditLog audit;

    UsersPage(UserAdministration users, AuditLog audit) {
        this.users = users;
        this.audit = audit;
    }

    @GetMapping("/users")
    String users(Model model) {
        model.addAttribute("users", users.list());
        model.addAttribute("roles", List.of(Role.values()).stream().map(Role::id).toList());
        return "security/users";
    }

    @PostMapping("/users")
    String create(@RequestParam String username, @RequestParam(required = false) String displayName,
                  @RequestParam(name = "roles", required = false) List<String> roles,
                  @RequestParam(required = false) String password, Principal principal, HttpServletRequest request,
                  RedirectAttributes redirect) {
        try {
            UserAdministration.CreatedUser created = users.create(new UserAdministration.NewUser(username,
                    displayName, roles(roles), password == null || password.isEmpty() ? null : password),
                    principal.getName(), request.getRemoteAddr());
            redirect.addFlashAttribute("notice", "Created " + created.user().username());
            if (created.generatedPassword() != null) {
                redirect.addFlashAttribute("generatedFor", created.user().username());
                redirect.addFlashAttribute("generatedPassword", created.generatedPassword());
            }
        } catch (BadRequestException | ConflictException e) {
            redirect.addFlashAttribute("createFailure", e.getMessage());
        }
        return "redirect:/users";
    }

    @PostMapping("/users/{username}")
    String change(@PathVariable String username, @RequestParam(required = false) String displayName,
                  @RequestParam(name = "roles", required = false) List<String> roles,
                  @RequestParam(defaultValue = "false") boolean enabled,
                  @RequestParam(required = false) String password, Principal principal, HttpServletRequest request,
                  RedirectAttributes redirect) {
        try {
            users.change(username, new UserAdministration.UserChange(displayName == null ? "" : displayName,
                    roles(roles), enabled, password == null || password.isEmpty() ? null : password),
                    principal.getName(), request.getRemoteAddr());
            redirect.addFlashAttribute("notice", "Saved " + username);
        } catch (BadRequestException | ConflictException | NotFoundException e) {
            redirect.addFlashAttribute("failedUser", username);
            redirect.addFlashAttribute("failure", e.getMessage());
        }
        return "redirect:/users";
    }

    @GetMapping("/audit")
    String audit(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
                 Model model) {
        model.addAttribute("entries", audit.recent(actor, action, AUDIT_PAGE));
        model.addAttribute("actor", actor);
        model.addAttribute("action", action);
        model.addAttribute("limit", AUDIT_PAGE);
        return "security/audit";
    }

    private static Set<Role> roles(List<String> ids) {
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String id : ids == null ? List.<String>of() : ids) {
            roles.add(Role.fromId(id).orElseThrow(() -> new BadRequestException("Expected a role (designer, "
                    + "operator, approver, admin), but found '" + id + "'", "/roles")));
        }
        return roles;
    }
}
