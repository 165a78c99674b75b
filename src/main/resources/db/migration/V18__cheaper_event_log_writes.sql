-- The supervisor writes two event rows and one node execution per hop; these changes make those writes cheaper.
--
-- Foreign keys from the two hottest tables to runs go: each row checked its run with a trigger and a
-- `SELECT ... FOR KEY SHARE` (about a sixth of PostgreSQL's time under load). Only the supervisor writes these rows, and
-- in the same transaction that first inserts the run's row and locks it (`RunRows.insertStarted`, `lockLogged`), so a
-- row without its run cannot be written. Runs are never deleted today; whatever deletes them later (retention) deletes
-- their event log and node executions with them.
ALTER TABLE event_log DROP CONSTRAINT event_log_run_id_fkey;
ALTER TABLE node_executions DROP CONSTRAINT node_executions_run_id_fkey;

-- No query reads node executions by status alone (they are always read by run), and the index made every status change
-- a non-HOT update.
DROP INDEX node_executions_status_idx;

-- Room on each page for the updated row version, so that status and activity updates stay HOT (no index writes).
ALTER TABLE node_executions SET (fillfactor = 80);
ALTER TABLE runs SET (fillfactor = 80);
