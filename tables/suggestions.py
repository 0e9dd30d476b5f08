"""A player's Suggest: the solver's setting of a holding, asked of the workers once per game.

One holding has one answer, so a second Suggest (a double click, or Suggest after Take it) waits
for the first instead of queueing the solver again; a failed or cancelled one is asked afresh.
With ``prepare`` the answer is asked for as the phase opens, before anyone presses Suggest (the
nearest deadline first), and the table's deadline sets a silent player's hands from it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Final

from engine.cards import AnyCard
from tables.games import GameSpec
from tables.hands import Suggestion, suggest_setting
from tables.runtime import Offload, Priority

#: Suggestions kept (a game's are of no use once it ends; a table holds six players).
SUGGESTIONS_KEPT: Final = 2_000


class Suggestions:
    """The solver's suggestion per (game, player), computed once, the oldest dropped first."""

    def __init__(self, kept: int = SUGGESTIONS_KEPT) -> None:
        self.kept = kept
        self._known: dict[tuple[int, int], asyncio.Future[Suggestion]] = {}

    def _asked(
        self,
        offload: Offload,
        spec: GameSpec,
        held: Sequence[AnyCard],
        key: tuple[int, int],
        priority: Priority,
        urgency: float = 0.0,
    ) -> asyncio.Future[Suggestion]:
        """The answer for ``key``: the one asked already, or a new ask of the workers."""
        known = self._known.get(key)
        if known is None or (known.done() and (known.cancelled() or known.exception())):
            work = offload(suggest_setting, spec, held, priority=priority, urgency=urgency)
            known = asyncio.ensure_future(work)
            self._known[key] = known
            while len(self._known) > self.kept:
                del self._known[next(iter(self._known))]
        return known

    async def of(
        self,
        offload: Offload,
        spec: GameSpec,
        held: Sequence[AnyCard],
        *,
        game_id: int,
        user: int,
    ) -> Suggestion:
        """The suggestion for this player's holding in this game, computed by ``offload`` once."""
        known = self._asked(offload, spec, held, (game_id, user), Priority.SUGGEST)
        # Shielded: one caller giving up does not cancel the answer the others wait for.
        return await asyncio.shield(known)

    def prepare(
        self,
        offload: Offload,
        spec: GameSpec,
        held: Sequence[AnyCard],
        *,
        game_id: int,
        user: int,
        deadline: float,
    ) -> None:
        """Ask for the suggestion now, without waiting for it: the workers take it after every
        player's own ask, the nearest deadline first."""
        known = self._asked(offload, spec, held, (game_id, user), Priority.PREPARE, deadline)
        # Nobody may be waiting for it: a failure is kept as the future's, not logged unseen.
        known.add_done_callback(_quietly)

    def ready(self, game_id: int, user: int) -> Suggestion | None:
        """The suggestion for this player in this game if it is computed already (never waits)."""
        known = self._known.get((game_id, user))
        if known is None or not known.done() or known.cancelled() or known.exception():
            return None
        return known.result()


def _quietly(done: asyncio.Future[Suggestion]) -> None:
    if not done.cancelled():
        done.exception()  # retrieved: asked again by whoever needs it (``_asked``)


def first_answer(spec: GameSpec, held: Sequence[AnyCard]) -> Suggestion:
    """A legal setting in milliseconds (the solver with no time to search: its greedy setting),
    shown while the solver's best is still being made."""
    return suggest_setting(spec, held, budget_s=0.0)
