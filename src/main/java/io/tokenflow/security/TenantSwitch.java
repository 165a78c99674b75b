package io.tokenflow.security;

import java.security.Principal;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.Tenant;
import io.tokenflow.tenancy.Tenants;
import io.tokenflow.web.ForbiddenException;
import io.tokenflow.web.Outages;

/**
 * The tenant switcher: every page's model gets the tenant the request acts in ({@code currentTenant}) and the
 * person's tenants ({@code switchableTenants}, shown as a switcher when there are two or more); {@code POST /tenant}
 * switches the session to another of the person's tenants and goes to the workflows list (a page of the old tenant
 * would not be found in the new one).
 */
@Controller
@ControllerAdvice
class TenantSwitch {

    private final UserAccountDetailsService accounts;
    private final Tenants tenants;

    TenantSwitch(UserAccountDetailsService accounts, Tenants tenants) {
        this.accounts = accounts;
        this.tenants = tenants;
    }

    @ModelAttribute("currentTenant")
    String currentTenant(Principal principal) {
        return principal == null ? null : CurrentTenant.orNull();
    }

    @ModelAttribute("switchableTenants")
    List<Tenant> switchableTenants(Principal principal) {
        if (principal == null || principal instanceof ApiTokenAuthentication) {
            return List.of();
        }
        try {
            // every page and fragment renders this: the tenants as cached for quotas, not a query per request
            return accounts.tenantsOf(principal.getName()).stream().map(tenants::cached)
                    .flatMap(java.util.Optional::stream).toList();
        } catch (RuntimeException e) {
            // while PostgreSQL is away the page shows no switcher rather than failing
            Outages.of(e).orElseThrow(() -> e);
            return List.of();
        }
    }

    @PostMapping("/tenant")
    String switchTo(@RequestParam String tenant, Principal principal, HttpServletRequest request) {
        if (!accounts.tenantsOf(principal.getName()).contains(tenant)) {
            throw new ForbiddenException("Expected one of your tenants, but you do not belong to '" + tenant + "'");
        }
        request.getSession().setAttribute(TenantFilter.SESSION_TENANT, tenant);
        return "redirect:/workflows";
    }
}
