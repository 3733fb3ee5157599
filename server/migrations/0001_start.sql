-- One schema for SQLite and PostgreSQL: only portable types (TEXT, BIGINT),
-- ids made by the server, no autoincrement.
CREATE TABLE users (
    name TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created BIGINT NOT NULL
);

CREATE TABLE tokens (
    token TEXT PRIMARY KEY,
    user_name TEXT NOT NULL REFERENCES users(name),
    created BIGINT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    version TEXT NOT NULL,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    creator TEXT NOT NULL,
    status TEXT NOT NULL,
    timeout_secs BIGINT NOT NULL,
    players TEXT NOT NULL,
    to_act TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    lease_owner TEXT,
    lease_until BIGINT NOT NULL
);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    kind TEXT NOT NULL,
    level TEXT NOT NULL,
    user_name TEXT,
    last_seen BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- The log: the primary key is what keeps two servers from forking a game
-- (the second insert of an index fails).
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx BIGINT NOT NULL,
    player BIGINT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx BIGINT NOT NULL,
    user_name TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
