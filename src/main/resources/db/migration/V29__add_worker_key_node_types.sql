-- The node types (worker types, the T of wf.tasks.T) a worker key may report on: a JSON array of names, or NULL for
-- every type (the built-in key, and keys made without nodeTypes).
ALTER TABLE worker_keys ADD COLUMN node_types jsonb;
