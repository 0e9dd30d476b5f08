-- The language of a server's channel posts: see the SQLite store's 0020.
ALTER TABLE guild_settings ADD COLUMN language TEXT;
