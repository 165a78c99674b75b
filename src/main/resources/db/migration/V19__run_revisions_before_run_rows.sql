-- A run's row in `runs` is written by the supervisor when it persists the run's `run.started` event, moments after
-- the run starts in Redis; the patch API records a run's revision when it patches the running run. A patch that came
-- in first (an agent patching its own run as its first node, a script patching right after starting) was refused by
-- this foreign key, although the run existed. The run's row always follows: its `run.started` event precedes the
-- `run.patched` event in the run's own log. As for the event log (V18), whatever deletes runs later (retention)
-- deletes their revisions with them.
ALTER TABLE run_ir_revisions DROP CONSTRAINT run_ir_revisions_run_id_fkey;
