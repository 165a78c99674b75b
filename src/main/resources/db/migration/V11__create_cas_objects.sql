-- Content-addressed storage for large payloads, schemas and code: cas://sha256:<hex>, deduplicated by hash.
CREATE TABLE cas_objects (
    hash       text        PRIMARY KEY CHECK (hash ~ '^sha256:[0-9a-f]{64}$'),
    media_type text        NOT NULL,
    size_bytes bigint      NOT NULL CHECK (size_bytes >= 0),
    content    bytea       NOT NULL,
    created_at timestamptz NOT NULL
);
