-- One word for the thing /table create takes: the game.
ALTER TABLE games RENAME COLUMN variant TO game;
DROP INDEX games_by_variant;
CREATE INDEX games_by_game ON games (guild_id, game);
