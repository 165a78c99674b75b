package io.tokenflow.security;

import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;

/**
 * People and the audit log, for admins: list, create (a password is generated and shown once unless given), change
 * roles, tenants, display name, password, enabled; read the audit log. A body member this API does not know is refused.
 */
@RestController
@RequestMapping("/api/v1")
class UsersApi {

    private static final Set<String> CREATE_FIELDS = Set.of("username", "displayName", "roles", "password",
            "tenants");
    private static final Set<String> CHANGE_FIELDS = Set.of("displayName", "roles", "enabled", "password",
            "tenants");

    private final UserAdministration users;
    private final AuditLog audit;

    UsersApi(UserAdministration users, AuditLog audit) {
        this.users = users;
        this.audit = audit;
    }

    @GetMapping("/users")
    List<UserSummary> list() {
        return users.list();
    }

    @PostMapping(path = "/users", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> create(@RequestBody String text, Caller caller, HttpServletRequest request) {
        JsonNode body = RequestJson.object(text, CREATE_FIELDS);
        UserAdministration.CreatedUser created = users.create(new UserAdministration.NewUser(
                        RequestJson.text(body, "username"), RequestJson.text(body, "displayName"), roles(body),
                        RequestJson.text(body, "password"),
                        tenants(body)),
                caller.username(), request.getRemoteAddr());
        Map<String, Object> answer = new java.util.LinkedHashMap<>();
        answer.put("user", created.user());
        if (created.generatedPassword() != null) {
            answer.put("generatedPassword", created.generatedPassword());
        }
        return ResponseEntity.status(HttpStatus.CREATED).cacheControl(CacheControl.noStore()).body(answer);
    }

    @PatchMapping(path = "/users/{username}", consumes = MediaType.APPLICATION_JSON_VALUE)
    UserSummary change(@PathVariable String username, @RequestBody String text, Caller caller,
                       HttpServletRequest request) {
        JsonNode body = RequestJson.object(text, CHANGE_FIELDS);
        JsonNode enabled = body.get("enabled");
        if (enabled != null && !enabled.isBoolean()) {
            throw new BadRequestException("Expected enabled to be true or false, but found " + enabled, "/enabled");
        }
        return users.change(username, new UserAdministration.UserChange(RequestJson.text(body, "displayName"),
                roles(body), enabled == null ? null : enabled.asBoolean(), RequestJson.text(body, "password"),
                tenants(body)),
                caller.username(),
                request.getRemoteAddr());
    }

    @GetMapping("/audit")
    List<AuditLog.Entry> audit(@RequestParam(required = false) String actor,
                               @RequestParam(required = false) String action,
                               @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > AuditLog.MAX_LIMIT) {
            throw new BadRequestException("Expected limit between 1 and " + AuditLog.MAX_LIMIT + ", but found " + limit,
                    null);
        }
        return audit.recent(actor, action, limit);
    }


    private static List<String> tenants(JsonNode body) {
        JsonNode tenants = body.get("tenants");
        if (tenants == null || tenants.isNull()) {
            return null;
        }
        if (!tenants.isArray()) {
            throw new BadRequestException("Expected tenants to be an array of tenant ids, but found " + tenants,
                    "/tenants");
        }
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < tenants.size(); i++) {
            JsonNode item = tenants.get(i);
            if (!item.isString()) {
                throw new BadRequestException("Expected a tenant id, but found " + item, "/tenants/" + i);
            }
            ids.add(item.asString());
        }
        return ids;
    }

    private static Set<Role> roles(JsonNode body) {
        JsonNode roles = body.get("roles");
        if (roles == null || roles.isNull()) {
            return null;
        }
        if (!roles.isArray()) {
            throw new BadRequestException("Expected roles to be an array of role names, but found " + roles, "/roles");
        }
        Set<Role> parsed = EnumSet.noneOf(Role.class);
        Iterator<JsonNode> items = roles.iterator();
        for (int i = 0; items.hasNext(); i++) {
            JsonNode item = items.next();
            int index = i;
            parsed.add(Role.fromId(item.isString() ? item.asString() : "").orElseThrow(() -> new BadRequestException(
                    "Expected a role (designer, operator, approver, admin), but found " + item, "/roles/" + index)));
        }
        return parsed;
    }
}
