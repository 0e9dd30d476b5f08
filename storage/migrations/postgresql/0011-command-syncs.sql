-- What the bot last sent Discord as its slash commands: see the SQLite store's 0011.
CREATE TABLE command_syncs (
    application_id BIGINT NOT NULL,
    scope TEXT NOT NULL,
    digest TEXT NOT NULL,
    commands BIGINT NOT NULL,
    synced TEXT NOT NULL,
    PRIMARY KEY (application_id, scope)
);
