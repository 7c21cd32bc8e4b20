-- vtt-bridge on PostgreSQL, schema 1: the same tables as the embedded SQLite store
-- (schema 2 there). JSON documents are kept as text, byte for byte as the bridge
-- wrote them, so a copied world verifies exactly; cast to jsonb to query them.
CREATE TABLE worlds (
    id text PRIMARY KEY,
    name text NOT NULL,
    system text NOT NULL,
    gm_token_hash text NOT NULL UNIQUE,
    player_token_hash text NOT NULL UNIQUE,
    seq bigint NOT NULL DEFAULT 0 CHECK (seq >= 0),
    state text NOT NULL,
    initial_state text,
    created_at text NOT NULL
);

CREATE TABLE events (
    world_id text NOT NULL REFERENCES worlds (id),
    seq bigint NOT NULL CHECK (seq > 0),
    request_id text NOT NULL,
    event text NOT NULL,
    username text NOT NULL,
    role text NOT NULL,
    payload text NOT NULL,
    payload_hash text NOT NULL,
    draws text NOT NULL,
    pushes text NOT NULL,
    undo text,
    created_at text NOT NULL,
    PRIMARY KEY (world_id, seq),
    -- Idempotency: one event per (world, request id), whichever process wrote it.
    CONSTRAINT events_request_once UNIQUE (world_id, request_id)
);

CREATE TABLE used_follow_ups (
    world_id text NOT NULL REFERENCES worlds (id),
    card_id text NOT NULL,
    action text NOT NULL,
    seq bigint NOT NULL,
    PRIMARY KEY (world_id, card_id, action)
);
