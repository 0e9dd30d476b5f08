"""Draw the sample pictures in docs/ with the bot's own code: ``python -m cogs.samples [folder]``.

A seeded table plays out through the table layer as the bot plays it (everyone plays on, the
solver sets each holding, searching to the end so that the same seed draws the same pictures),
and ``cogs.pictures`` draws its showdown and a DM's hand, as the publisher does.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import i18n
from cogs.pictures import channel_showdown, hand_picture, phase_subtitle
from engine.cards import AnyCard
from tables.config import make_config
from tables.events import CardsDealt, DeclarationsOpened, Event, ShowdownSettled
from tables.games import GameSpec, game_named
from tables.hands import suggest_setting
from tables.phase import Phase
from tables.settle import settle_table
from tables.table import Table

NAMES: Final = ("Ada", "Bastien", "Chiara", "Dmitri", "Eun-ji", "Farah")
FIRST_USER: Final = 1001
SEED: Final = 7
DOCS: Final = Path(__file__).resolve().parent.parent / "docs"
#: Enough chips that no loss is capped (table stakes would add notes the sample is not about).
_BANKROLL: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class SampleGame:
    """One game played to its showdown: the events, the players' names and their cards."""

    spec: GameSpec
    events: tuple[Event, ...]
    names: dict[int, str]
    #: Every card each player held at the end (the deal and every draw).
    held: dict[int, tuple[AnyCard, ...]]

    @property
    def showdown(self) -> ShowdownSettled:
        """The game's showdown."""
        return next(e for e in self.events if isinstance(e, ShowdownSettled))

    @property
    def dealt(self) -> dict[int, tuple[AnyCard, ...]]:
        """The cards each player was dealt at the start."""
        return {e.user: e.cards for e in self.events if isinstance(e, CardsDealt)}


def play_sample(game: str = "showdown", players: int = len(NAMES), seed: int = SEED) -> SampleGame:
    """Play one seeded game of ``game`` through a table, every player playing on to the end."""
    spec = game_named(game)
    users = [FIRST_USER + index for index in range(players)]
    table = Table.open(0, 0, users[0], make_config(spec.name, seats=max(players, 1)))
    for user in users[1:]:
        table.join(user)
    events = list(table.start(users[0], game_id=seed, seed=seed, now=0.0))
    while table.phase is Phase.DECLARING:
        for user in table.waiting_for():
            events.extend(table.declare(user, True))
        events.extend(table.reveal(0.0))
    for seat in table.active:
        setting = suggest_setting(spec, seat.held, budget_s=None).setting
        events.extend(table.place(seat.user, setting, by="solver"))
    result = settle_table(table, dict.fromkeys(users, _BANKROLL))
    events.append(result.event)
    names = {user: NAMES[index % len(NAMES)] for index, user in enumerate(users)}
    held = {seat.user: seat.held for seat in table.seats}
    return SampleGame(spec, tuple(events), names, held)


def sample_showdown(sample: SampleGame, *, locale: str = i18n.ENGLISH.discord) -> bytes:
    """The showdown picture the bot posts for the sample game (its summary, when the full
    picture would be too tall for a phone), its words in the language of ``locale``."""
    data, _ = channel_showdown(sample.showdown, sample.names, locale=locale)
    return data


def sample_hand(sample: SampleGame, *, locale: str = i18n.ENGLISH.discord) -> bytes:
    """The DM of the first declaration, to the first player dealt a joker (to show one), its
    words in the language of ``locale``."""
    dealt = sample.dealt
    user = next((u for u, cards in dealt.items() if any(c.is_joker for c in cards)), min(dealt))
    opened = next(e for e in sample.events if isinstance(e, DeclarationsOpened))
    subtitle = phase_subtitle(sample.spec.title, opened, locale=locale)
    return hand_picture(dealt[user], subtitle=subtitle, locale=locale)


def main(argv: list[str]) -> int:
    """Write sample-showdown.png and sample-hand.png into the folder given (docs/ by default)."""
    folder = Path(argv[0]) if argv else DOCS
    folder.mkdir(parents=True, exist_ok=True)
    sample = play_sample()
    for name, data in (
        ("sample-showdown.png", sample_showdown(sample)),
        ("sample-hand.png", sample_hand(sample)),
    ):
        (folder / name).write_bytes(data)
        print(f"{folder / name}: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
