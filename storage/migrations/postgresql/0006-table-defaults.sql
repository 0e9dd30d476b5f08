-- A server's defaults for the tables it opens, as JSON read by tables/options.py.
ALTER TABLE guild_settings ADD COLUMN table_defaults TEXT NOT NULL DEFAULT '{}';
ALTER TABLE guild_settings DROP COLUMN default_ante;
