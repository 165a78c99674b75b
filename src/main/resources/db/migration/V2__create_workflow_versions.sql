-- Immutable versions: the DSL, its compiled IR, and the RFC 6902 patch (from the parent) that produced it.
-- dsl and ir are json (not jsonb) so the author's member order survives: exports and diffs read as written.
CREATE TABLE workflow_versions (
    workflow_id    uuid        NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    version        integer     NOT NULL CHECK (version >= 1),
    dsl            json        NOT NULL,
    ir             json        NOT NULL,
    content_hash   text        NOT NULL,
    parent_version integer,
    patch          jsonb,
    message        text,
    author         text        NOT NULL,
    created_at     timestamptz NOT NULL,
    PRIMARY KEY (workflow_id, version),
    FOREIGN KEY (workflow_id, parent_version) REFERENCES workflow_versions (workflow_id, version),
    CHECK (parent_version IS NULL OR parent_version < version)
);

CREATE INDEX workflow_versions_content_hash_idx ON workflow_versions (content_hash);
