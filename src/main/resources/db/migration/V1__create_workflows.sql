-- A workflow: a named, versioned definition. Its versions are immutable; tags point at versions.
CREATE TABLE workflows (
    id             uuid        PRIMARY KEY,
    name           text        NOT NULL,
    description    text,
    latest_version integer     NOT NULL CHECK (latest_version >= 1),
    created_by     text        NOT NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    archived_at    timestamptz,
    CONSTRAINT workflows_name_unique UNIQUE (name)
);
