-- Node types registered beyond the built-in ones (custom task types served by external workers).
CREATE TABLE node_types (
    name          text        PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
    display_name  text        NOT NULL,
    description   text,
    kind          text        NOT NULL CHECK (kind IN ('task', 'agent', 'human')),
    config_schema jsonb       NOT NULL,
    capabilities  jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_by    text        NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
