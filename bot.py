"""Entry point: read the settings from the environment and .env, then start the bot."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

log = logging.getLogger("pyramid_poker")

DEFAULT_DATABASE_PATH = Path("data/pyramid.sqlite3")
MISSING_TOKEN_MESSAGE = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it (see README)."
)
EXIT_BAD_SETTINGS = 2


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one sentence fit for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot needs from its environment to start."""

    # Kept out of the repr so that logging the settings never leaks the token.
    discord_token: str = field(repr=False)
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Build the settings from environment variables, raising `SettingsError` on a bad one."""
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(MISSING_TOKEN_MESSAGE)
    database_path = environ.get("DATABASE_PATH", "").strip()
    return Settings(
        discord_token=token,
        database_path=Path(database_path) if database_path else DEFAULT_DATABASE_PATH,
        dev_guild_id=parse_guild_id(environ.get("DEV_GUILD_ID", "")),
    )


def parse_guild_id(text: str) -> int | None:
    """Read the optional development server id; empty means commands sync globally."""
    text = text.strip()
    if not text:
        return None
    # str.isdigit alone accepts digits such as '²' that int() refuses.
    if not (text.isascii() and text.isdigit()):
        raise SettingsError(
            f"DEV_GUILD_ID must be a Discord server id (digits only) or empty, not {text!r}."
        )
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot with the arguments after the program name; return the exit status."""
    parser = argparse.ArgumentParser(
        description="Pyramid Poker Discord bot. Settings come from the environment and ./.env."
    )
    parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # Only the .env of the working directory counts, and real environment variables win over it.
    load_dotenv(Path.cwd() / ".env")
    try:
        settings = load_settings(os.environ)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_SETTINGS
    log.info("Settings loaded: %s", settings)
    log.info("The Discord layer is not built yet, so the bot stops here.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
