-- The name a player last showed on the server, for pictures and leaderboards.
ALTER TABLE players ADD COLUMN name TEXT;
