package io.tokenflow.approvals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an approval's detail shows: the fields of its human node's {@code form} (from the IR its run follows), each
 * read by its JSON Pointer from {@code {"input": <the run's input>, "payload": <the approval's payload>}}; without a
 * form, the payload's top-level members but its HTTP {@code headers}.
 */
@Component
class ApprovalForms {

    private static final String FIELDS = """
            select a.id, r.inputs, coalesce(rr.ir -> 'nodes' -> a.node_id -> 'human' -> 'form' -> 'fields',
                   cast(v.ir -> 'nodes' -> a.node_id -> 'human' -> 'form' -> 'fields' as jsonb)) as fields
            from approvals a
            join runs r on r.id = a.run_id
            join workflow_versions v on v.workflow_id = r.workflow_id and v.version = r.workflow_version
            left join run_ir_revisions rr on rr.run_id = r.id and rr.revision = r.ir_revision
            where a.id in (:ids)
            """;
    private static final String HIDDEN_BY_DEFAULT = "headers";

    private final JdbcClient jdbc;
    private final JsonMapper json;

    ApprovalForms(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Each approval's fields by its id. */
    Map<UUID, List<FormValue>> fields(List<ApprovalRecord> approvals) {
        Map<UUID, List<FormValue>> fields = new HashMap<>();
        if (approvals.isEmpty()) {
            return fields;
        }
        Map<UUID, ApprovalRecord> byId = new HashMap<>();
        approvals.forEach(approval -> byId.put(approval.id(), approval));
        jdbc.sql(FIELDS).param("ids", byId.keySet()).query((rs, row) -> {
            UUID id = rs.getObject("id", UUID.class);
            String form = rs.getString("fields");
            JsonNode inputs = json.readTree(rs.getString("inputs"));
            fields.put(id, form == null ? defaults(byId.get(id).payload())
                    : values(json.readTree(form), inputs, byId.get(id).payload()));
            return id;
        }).list();
        return fields;
    }

    private static List<FormValue> values(JsonNode form, JsonNode inputs, JsonNode payload) {
        ObjectNode context = JsonNodeFactory.instance.objectNode();
        context.set("input", inputs);
        context.set("payload", payload);
        List<FormValue> values = new ArrayList<>();
        form.forEach(field -> values.add(FormValue.of(field.get("name").asString(), field.get("label").asString(),
                field.get("type").asString(), context.at(field.get("pointer").asString()))));
        return values;
    }

    private static List<FormValue> defaults(JsonNode payload) {
        List<FormValue> values = new ArrayList<>();
        if (payload == null) {
            return values;
        }
        if (!payload.isObject()) {
            values.add(FormValue.inferred("value", payload));
            return values;
        }
        payload.properties().forEach(member -> {
            if (!HIDDEN_BY_DEFAULT.equals(member.getKey())) {
                values.add(FormValue.inferred(member.getKey(), member.getValue()));
            }
        });
        return values;
    }
}
