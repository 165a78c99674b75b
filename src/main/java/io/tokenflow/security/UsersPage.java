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
import io.tokenflow.tenancy.Tenant;
import io.tokenflow.tenancy.Tenants;
import io.tokenflow.web.NotFoundException;

/**
 * The people page ({@code /users}: create, change roles, tenants, name, password, disable or enable; create tenants and
 * set their quota) and the audit log page
 * ({@code /audit}), for admins, on {@link UserAdministration} and {@link AuditLog} as the API is. A refusal is shown
 * beside the form it came from.
 */
@Controller
class UsersPage {

    private static final int AUDIT_PAGE = 200;

    private final UserAdministration users;
    private final AuditLog audit;
    private final Tenants tenants;

    UsersPage(UserAdministration users, AuditLog audit, Tenants tenants) {
        this.users = users;
        this.tenants = tenants;
        this.audit = audit;
    }

    @GetMapping("/users")
    String users(Model model) {
        model.addAttribute("users", users.list());
        model.addAttribute("roles", List.of(Role.values()).stream().map(Role::id).toList());
        model.addAttribute("tenants", tenants.all());
        return "security/users";
    }

    @PostMapping("/users")
    String create(@RequestParam String username, @RequestParam(required = false) String displayName,
                  @RequestParam(name = "roles", required = false) List<String> roles,
                  @RequestParam(name = "tenants", required = false) List<String> memberOf,
                  @RequestParam(required = false) String password, Principal principal, HttpServletRequest request,
                  RedirectAttributes redirect) {
        try {
            UserAdministration.CreatedUser created = users.create(new UserAdministration.NewUser(username,
                    displayName, roles(roles), password == null || password.isEmpty() ? null : password,
                    memberOf == null ? List.of() : memberOf),
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
                  @RequestParam(name = "tenants", required = false) List<String> memberOf,
                  @RequestParam(required = false) String password, Principal principal, HttpServletRequest request,
                  RedirectAttributes redirect) {
        try {
            users.change(username, new UserAdministration.UserChange(displayName == null ? "" : displayName,
                    roles(roles), enabled, password == null || password.isEmpty() ? null : password,
                    memberOf == null ? List.of() : memberOf),
                    principal.getName(), request.getRemoteAddr());
            redirect.addFlashAttribute("notice", "Saved " + username);
        } catch (BadRequestException | ConflictException | NotFoundException e) {
            redirect.addFlashAttribute("failedUser", username);
            redirect.addFlashAttribute("failure", e.getMessage());
        }
        return "redirect:/users";
    }

    @PostMapping("/tenants")
    String createTenant(@RequestParam String id, @RequestParam String name,
                        @RequestParam(required = false) String maxRunsInFlight,
                        @RequestParam(required = false) String maxHopsPerMinute, Principal principal,
                        HttpServletRequest request, RedirectAttributes redirect) {
        try {
            Tenant created = tenants.create(id, name, quotas(maxRunsInFlight, maxHopsPerMinute), principal.getName());
            audit.record(principal.getName(), "tenant.created", created.id(), TenantsApi.details(created),
                    request.getRemoteAddr());
            redirect.addFlashAttribute("notice", "Created tenant " + created.id());
        } catch (BadRequestException | ConflictException e) {
            redirect.addFlashAttribute("createTenantFailure", e.getMessage());
        }
        return "redirect:/users";
    }

    @PostMapping("/tenants/{id}")
    String changeTenant(@PathVariable String id, @RequestParam(required = false) String name,
                        @RequestParam(required = false) String maxRunsInFlight,
                        @RequestParam(required = false) String maxHopsPerMinute, Principal principal,
                        HttpServletRequest request, RedirectAttributes redirect) {
        try {
            Tenant changed = tenants.update(id, name, quotas(maxRunsInFlight, maxHopsPerMinute));
            audit.record(principal.getName(), "tenant.changed", id, TenantsApi.details(changed),
                    request.getRemoteAddr());
            redirect.addFlashAttribute("notice", "Saved tenant " + id);
        } catch (BadRequestException | NotFoundException e) {
            redirect.addFlashAttribute("failedTenant", id);
            redirect.addFlashAttribute("tenantFailure", e.getMessage());
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

    private static Tenant.Quotas quotas(String maxRunsInFlight, String maxHopsPerMinute) {
        return new Tenant.Quotas(quota(maxRunsInFlight, "the most runs in flight", "/maxRunsInFlight"),
                quota(maxHopsPerMinute, "the most hops per minute", "/maxHopsPerMinute"));
    }

    /** An empty field is no limit; anything but a whole number from 1 is refused beside the form. */
    private static Integer quota(String text, String what, String pointer) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(text.strip());
        } catch (NumberFormatException e) {
            throw new BadRequestException("Expected " + what + " to be a whole number from 1 (empty: no limit), but "
                    + "found '" + text + "'", pointer);
        }
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
