-- Run-scoped IR revisions produced by patching a running run (revision 0 is the pinned version's IR).
CREATE TABLE run_ir_revisions (
    run_id     uuid        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    revision   integer     NOT NULL CHECK (revision >= 1),
    dsl        jsonb       NOT NULL,
    ir         jsonb       NOT NULL,
    patch      jsonb       NOT NULL,
    author     text        NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (run_id, revision)
);
