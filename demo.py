"""``python bot.py --demo VARIANT``: a whole table of solver players, with no Discord and no token.

The game runs through the real table layer (a ``TableManager`` on a fresh SQLite file, chips
escrowed and settled through the ledger); a publisher writes what the bot would send into a
folder: each player's DM pictures, the showdown picture and a transcript of the events.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import i18n
from cogs.pictures import channel_showdown, hand_picture, phase_subtitle, showdown_picture
from engine.cards import AnyCard, format_cards
from render.style import signed
from storage import Storage
from storage.stores import open_database
from tables.config import make_config
from tables.events import (
    ArrangingOpened,
    CardsDealt,
    CardsDrawn,
    DeclarationsOpened,
    Event,
    ShowdownSettled,
)
from tables.games import GAMES, game_named
from tables.hands import default_setting
from tables.manager import TableManager
from tables.phase import Phase
from tables.runtime import ThreadOffload

#: The pictures' language unless one is asked for.
ENGLISH = i18n.ENGLISH.discord

GUILD, CHANNEL = 1, 1
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
FIRST_USER = 1001


class FolderPublisher:
    """Writes the pictures the bot would post or DM, and a line per event, into a folder."""

    def __init__(self, folder: Path, names: dict[int, str], locale: str = ENGLISH) -> None:
        self.folder = folder
        #: The language the pictures' words are in (a Discord locale: "de", "zh-CN").
        self.locale = locale
        self.names = names
        self.written: list[Path] = []
        self.lines: list[str] = []
        self.held: dict[int, tuple[AnyCard, ...]] = {}
        self.phase = 0

    def _write(self, name: str, data: bytes) -> None:
        path = self.folder / name
        path.write_bytes(data)
        self.written.append(path)

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        """Turn each event into a transcript line, and DMs and the showdown into pictures."""
        for event in events:
            if isinstance(event, CardsDealt):
                self.held[event.user] = event.cards
                continue  # private: shown as the DM picture of the next phase
            if isinstance(event, CardsDrawn):
                self.held[event.user] = event.held
                continue
            self.lines.append(f"{type(event).__name__}: {self._describe(event)}")
            if isinstance(event, DeclarationsOpened | ArrangingOpened):
                self.phase += 1
                what = "declare" if isinstance(event, DeclarationsOpened) else "arrange"
                title = game_named(event.game).title
                subtitle = phase_subtitle(title, event, locale=self.locale)
                for user, cards in sorted(self.held.items()):
                    if user in event.players:
                        name = f"dm-{self.phase}-{what}-{self.names[user].lower()}.png"
                        data = await asyncio.to_thread(
                            hand_picture, cards, subtitle=subtitle, locale=self.locale
                        )
                        self._write(name, data)
                        self.lines.append(f"  DM to {self.names[user]}: {format_cards(cards)}")
                self.held = {}
            elif isinstance(event, ShowdownSettled):
                # As the channel gets it (the summary when the full picture is too tall for a
                # phone), and the full picture Full showdown answers with.
                data, summary = await asyncio.to_thread(
                    channel_showdown, event, self.names, locale=self.locale
                )
                self._write(f"showdown-game-{event.game_id}.png", data)
                if summary:
                    full = await asyncio.to_thread(
                        showdown_picture, event, self.names, locale=self.locale
                    )
                    self._write(f"showdown-game-{event.game_id}-full.png", full)

    def _describe(self, event: Event) -> str:
        if isinstance(event, ShowdownSettled):
            return ", ".join(f"{self.names[u]} {signed(n)}" for u, n in event.nets.items())
        fields = getattr(event, "__dataclass_fields__", {})
        return ", ".join(f"{name}={self._named(getattr(event, name))}" for name in fields)

    def _named(self, value: object) -> str:
        """A value with the players' ids written as their names."""
        if isinstance(value, bool) or not isinstance(value, int | tuple | dict):
            return str(value)
        if isinstance(value, int):
            return self.names.get(value, str(value))
        if isinstance(value, tuple):
            return "(" + ", ".join(self._named(item) for item in value) + ")"
        return "{" + ", ".join(f"{self._named(k)}: {v}" for k, v in value.items()) + "}"


async def play_demo(
    game: str,
    folder: Path,
    players: int | None = None,
    seed: int = 1,
    *,
    locale: str = ENGLISH,
) -> list[Path]:
    """Play one game of ``game`` with solver players; return the files it wrote (the pictures'
    words in the language of ``locale``)."""
    spec = game_named(game)
    count = players or min(spec.max_players, 4)
    if not spec.min_players <= count <= spec.max_players:
        raise ValueError(
            f"{spec.title} seats {spec.min_players} to {spec.max_players} players, not {count}."
        )
    folder.mkdir(parents=True, exist_ok=True)
    users = [FIRST_USER + i for i in range(count)]
    names = {user: NAMES[i] for i, user in enumerate(users)}
    publisher = FolderPublisher(folder, names, locale)
    with tempfile.TemporaryDirectory() as scratch:
        database = await open_database(Path(scratch) / "demo.sqlite3")
        tables = TableManager(
            Storage.over(database),
            publisher,
            clock=time.time,
            rng=random.Random(seed),
            offload=ThreadOffload(),
            arranger=default_setting,
        )
        try:
            await tables.create(GUILD, CHANNEL, users[0], make_config(spec.name))
            for user in users[1:]:
                await tables.join(GUILD, CHANNEL, user)
            await tables.start(GUILD, CHANNEL, users[0])
            while (table := await tables.table(GUILD, CHANNEL)) is not None and table.in_game:
                waiting = table.waiting_for()
                if table.phase is Phase.DECLARING:
                    for user in waiting:
                        await tables.declare(GUILD, CHANNEL, user, True)
                elif table.phase is Phase.ARRANGING:
                    for user in waiting:
                        suggestion = await tables.suggest(GUILD, CHANNEL, user)
                        await tables.submit(GUILD, CHANNEL, user, suggestion.setting)
                else:
                    break
        finally:
            await tables.close()
            await database.close()
    transcript = folder / "transcript.txt"
    transcript.write_text("\n".join(publisher.lines) + "\n", encoding="utf-8")
    publisher.written.append(transcript)
    return publisher.written


def run_demo(game: str, folder: Path, players: int | None = None) -> int:
    """The ``--demo`` command: play, then list what was written; return the exit status."""
    if game not in GAMES:
        print(f"There is no game called {game!r}; try one of: {', '.join(GAMES)}.")
        return 2
    started = time.perf_counter()
    try:
        written = asyncio.run(play_demo(game, folder, players))
    except ValueError as error:
        print(error)
        return 2
    elapsed = time.perf_counter() - started
    print(f"Played one game of {GAMES[game].title} in {elapsed:.1f} s. Wrote into {folder}/:")
    for path in written:
        print(f"  {path.name}  ({path.stat().st_size / 1024:.0f} KB)")
    return 0
