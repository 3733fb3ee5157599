-- Whether a game's players have muted its spectators' chat.
ALTER TABLE games ADD COLUMN spectators_muted BIGINT NOT NULL DEFAULT 0;
