-- Stream entries that could not be processed (PostgreSQL refused them, or they do not follow their stream's
-- contract): set aside, acknowledged, with their raw text and why. first_seq..last_seq are the run's events the entry
-- held: the event log goes on after them (the run is failed with the reason).
CREATE TABLE quarantined_entries (
    id             bigserial   PRIMARY KEY,
    quarantined_at timestamptz NOT NULL,
    shard          integer     NOT NULL,
    stream         text        NOT NULL,
    entry_id       text        NOT NULL,
    run_id         uuid,
    first_seq      bigint,
    last_seq       bigint,
    raw            text        NOT NULL,
    reason         text        NOT NULL,
    CONSTRAINT quarantined_entries_entry_unique UNIQUE (stream, entry_id)
);

CREATE INDEX quarantined_entries_run_idx ON quarantined_entries (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX quarantined_entries_newest_idx ON quarantined_entries (quarantined_at DESC, id DESC);
