"""One name per game, everywhere: the bot, the command line, the database and the docs.

Players type names in many ways (``no_surrender``, ``Three card``, ``pai-gow``); each is read as
the one spelling below, which is what is stored and shown.
"""

from __future__ import annotations

from typing import Final

from engine.errors import GameError, quote
from engine.text import tr

#: Every game, by the name it goes by.
GAME_NAMES: Final = ("showdown", "casino", "standard", "no-surrender", "three-card", "paigow")

#: Other spellings people type, after case, spaces and underscores are folded to hyphens.
_ALIASES: Final = {"pai-gow": "paigow", "nosurrender": "no-surrender", "threecard": "three-card"}


def fold_name(text: str) -> str:
    """What was typed with case, spaces and underscores folded: "Three card" is "three-card"."""
    return "-".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


def game_name(text: str) -> str:
    """The game's one name for what was typed; ``GameError`` naming the games otherwise."""
    folded = fold_name(text)
    name = _ALIASES.get(folded, folded)
    if name not in GAME_NAMES:
        raise GameError(
            tr(
                "There is no game called {name}; try one of {known}.",
                name=quote(text),
                known=", ".join(GAME_NAMES),
            )
        )
    return name
