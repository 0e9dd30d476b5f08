"""SQLite schema, migrations, repositories and the chip ledger."""
