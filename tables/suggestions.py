"""A player's Suggest: the solver's setting of a holding, asked of the workers once per game.

One holding has one answer, so a second Suggest (a double click, or Suggest after Take it) waits
for the first instead of queueing the solver again; a failed or cancelled one is asked afresh.
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
        key = (game_id, user)
        known = self._known.get(key)
        if known is None or (known.done() and (known.cancelled() or known.exception())):
            known = asyncio.ensure_future(
                offload(suggest_setting, spec, held, priority=Priority.SUGGEST)
            )
            self._known[key] = known
            while len(self._known) > self.kept:
                del self._known[next(iter(self._known))]
        # Shielded: one caller giving up does not cancel the answer the others wait for.
        return await asyncio.shield(known)

    def ready(self, game_id: int, user: int) -> Suggestion | None:
        """The suggestion for this player in this game if it is computed already (never waits)."""
        known = self._known.get((game_id, user))
        if known is None or not known.done() or known.cancelled() or known.exception():
            return None
        return known.result()
