-- Movable names (e.g. "main") that point at one version of a workflow.
CREATE TABLE workflow_tags (
    workflow_id uuid        NOT NULL,
    tag         text        NOT NULL CHECK (tag ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$'),
    version     integer     NOT NULL,
    updated_by  text        NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (workflow_id, tag),
    FOREIGN KEY (workflow_id, version) REFERENCES workflow_versions (workflow_id, version) ON DELETE CASCADE
);
