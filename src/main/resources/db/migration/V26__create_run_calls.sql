-- The link between a child run and the workflow node of the run that started it (waits.ChildRuns): written when
-- the child starts, before the parent holds the node's token, and kept as the runs' history. The child's runs row may
-- come later (the event log writes it), so there is no foreign key to runs.
CREATE TABLE run_calls (
    child_run_id  uuid        PRIMARY KEY,
    parent_run_id uuid        NOT NULL,
    parent_node   text        NOT NULL,
    parent_token  text        NOT NULL,
    depth         integer     NOT NULL CHECK (depth >= 1),
    called_at     timestamptz NOT NULL
);

CREATE INDEX run_calls_parent_idx ON run_calls (parent_run_id);
