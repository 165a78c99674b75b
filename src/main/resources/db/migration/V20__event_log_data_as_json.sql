-- The supervisor appends about fifteen event rows per short run, and PostgreSQL's time per row went mostly to turning
-- each event's data into jsonb (parsing it into the binary form and building that form). No query looks into the data
-- with jsonb's operators: the run pages, the events API and replay read it back whole, as text. `json` only checks the
-- text and keeps it as it is.
ALTER TABLE event_log ALTER COLUMN data TYPE json USING data::json;
