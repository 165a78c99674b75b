-- People who sign in. Roles: designer, operator, approver, admin.
CREATE TABLE users (
    username      text        PRIMARY KEY CHECK (username ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$'),
    password_hash text        NOT NULL,
    roles         jsonb       NOT NULL DEFAULT '[]'::jsonb,
    display_name  text,
    source        text        NOT NULL CHECK (source IN ('CONFIGURATION', 'GENERATED', 'ADMIN')),
    enabled       boolean     NOT NULL DEFAULT true,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
