-- A server's defaults for the tables it opens, as JSON read by tables/options.py: the ante per
-- game, what a silent player declares, and the house games' options. They replace the single
-- default_ante, which no table used (each game has its own ante).
ALTER TABLE guild_settings ADD COLUMN table_defaults TEXT NOT NULL DEFAULT '{}';
ALTER TABLE guild_settings DROP COLUMN default_ante;
