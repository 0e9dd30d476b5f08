-- What the bot last sent Discord as its slash commands, per application and scope ("global", or
-- a development server's id): a digest of the payload. A start whose commands hash to the same
-- digest does not sync again; a changed tree syncs once.
CREATE TABLE command_syncs (
    application_id INTEGER NOT NULL,
    scope TEXT NOT NULL,
    digest TEXT NOT NULL,
    commands INTEGER NOT NULL,
    synced TEXT NOT NULL,
    PRIMARY KEY (application_id, scope)
) WITHOUT ROWID;
