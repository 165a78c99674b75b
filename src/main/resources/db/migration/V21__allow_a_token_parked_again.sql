-- A parked token may be reprocessed and fail again: each parking is an entry of its own, so (run, token) is no longer
-- unique. The entry also keeps the error's code and the token's iteration, for filters and the run page, and may also
-- be resolved by a late completion of its task (COMPLETED) or by the end of its run (RUN_ENDED).
ALTER TABLE dlq DROP CONSTRAINT dlq_token_unique;
ALTER TABLE dlq ADD COLUMN error_code text;
ALTER TABLE dlq ADD COLUMN iteration integer NOT NULL DEFAULT 0;
CREATE INDEX dlq_run_idx ON dlq (run_id, created_at);
ALTER TABLE dlq DROP CONSTRAINT dlq_resolution_check;
ALTER TABLE dlq ADD CONSTRAINT dlq_resolution_check
    CHECK (resolution IN ('REQUEUED', 'DISCARDED', 'COMPLETED', 'RUN_ENDED'));
