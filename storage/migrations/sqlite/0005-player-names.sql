-- The name a player last showed on the server, so pictures and leaderboards can name them
-- without asking Discord (the bot has no members intent, so its member cache is mostly empty).
ALTER TABLE players ADD COLUMN name TEXT;
