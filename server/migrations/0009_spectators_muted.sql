-- Whether a game's players have muted its spectators' chat.
ALTER TABLE games ADD COLUMN spectators_muted INTEGER NOT NULL DEFAULT 0;
