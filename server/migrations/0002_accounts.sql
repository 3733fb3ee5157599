-- User names are one name whatever their case (`bob` and `BOB`): `name_key`
-- is the lower-cased name, unique. Of stored names that differ only in case,
-- one (the least) gets the key and is found by any case; the others keep
-- their accounts, logged in by their exact name only (NULL keys do not
-- collide, on SQLite or PostgreSQL).
ALTER TABLE users ADD COLUMN name_key TEXT;
UPDATE users SET name_key = lower(name)
    WHERE name IN (SELECT min(name) FROM users GROUP BY lower(name));
CREATE UNIQUE INDEX users_name_key ON users (name_key);

-- An account's tokens: signing out everywhere, pruning.
CREATE INDEX tokens_user ON tokens (user_name, created);
