-- The language of a server's channel posts, as Discord's locale code ("de", "zh-CN"), chosen
-- with /settings language; NULL: the server's preferred locale (cogs/language.py).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
