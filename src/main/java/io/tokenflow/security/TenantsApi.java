package io.tokenflow.security;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.tenancy.Tenant;
import io.tokenflow.tenancy.Tenants;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;

/**
 * Tenants, for admins: list, create ({@code id}, {@code name}, optional quotas {@code maxRunsInFlight} and
 * {@code maxHopsPerMinute}) and change (name, quotas; a quota given as {@code null} removes the limit, one left out
 * stays as it is). People are put in tenants on {@code /api/v1/users}. Every change is audited. A body member this API
 * does not know is refused.
 */
@RestController
@RequestMapping("/api/v1/tenants")
class TenantsApi {

    private static final String RUNS = "maxRunsInFlight";
    private static final String HOPS = "maxHopsPerMinute";

    private final Tenants tenants;
    private final AuditLog audit;

    TenantsApi(Tenants tenants, AuditLog audit) {
        this.tenants = tenants;
        this.audit = audit;
    }

    @GetMapping
    List<Tenant> list() {
        return tenants.all();
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Tenant> create(@RequestBody String text, Caller caller, HttpServletRequest request) {
        JsonNode body = RequestJson.object(text, Set.of("id", "name", RUNS, HOPS));
        Tenant created = tenants.create(RequestJson.text(body, "id"), RequestJson.text(body, "name"),
                new Tenant.Quotas(quota(body, RUNS), quota(body, HOPS)), caller.username());
        audit.record(caller.username(), "tenant.created", created.id(), details(created), request.getRemoteAddr());
        return ResponseEntity.status(HttpStatus.CREATED).body(created);
    }

    @PatchMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Tenant change(@PathVariable String id, @RequestBody String text, Caller caller, HttpServletRequest request) {
        JsonNode body = RequestJson.object(text, Set.of("name", RUNS, HOPS));
        Tenant before = tenants.require(id);
        Tenant changed = tenants.update(id, RequestJson.text(body, "name"), new Tenant.Quotas(
                body.has(RUNS) ? quota(body, RUNS) : before.maxRunsInFlight(),
                body.has(HOPS) ? quota(body, HOPS) : before.maxHopsPerMinute()));
        audit.record(caller.username(), "tenant.changed", id, details(changed), request.getRemoteAddr());
        return changed;
    }

    /** What the audit log keeps of a tenant created or changed (here and on the people page). */
    static Map<String, Object> details(Tenant tenant) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("name", tenant.name());
        details.put(RUNS, tenant.maxRunsInFlight() == null ? "no limit" : tenant.maxRunsInFlight());
        details.put(HOPS, tenant.maxHopsPerMinute() == null ? "no limit" : tenant.maxHopsPerMinute());
        return details;
    }

    private static Integer quota(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new BadRequestException("Expected " + name + " to be a whole number from 1 (or null for no "
                    + "limit), but found " + value, "/" + name);
        }
        return value.asInt();
    }
}
