"""The computers' turns: as soon as a phase opens, each computer decides in a worker process and
its choice is played like any player's click. A computer never holds the table up: the humans'
clicks go on meanwhile, and its work waits for a worker like the deadline's (before Suggest).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from storage.health import StoreHealth, log_failure
from tables.computers import computer_declares, computer_sets
from tables.events import Event
from tables.phase import Phase
from tables.runtime import Offload, Priority
from tables.table import Table

log = logging.getLogger(__name__)

Key = tuple[int, int]
#: An action on a table, as the manager runs it (under the table's lock, saved, published; a
#: table closed meanwhile is left alone).
Act = Callable[[Key, Callable[[Table], Awaitable[list[Event]]]], Awaitable[object]]
#: What a computer's turn is about: its seat, the game, the phase and the declaration.
Turn = tuple[int, int, Phase, int]


class ComputerTurns:
    """Starts each pending computer's turn once, and plays it through ``act``."""

    def __init__(self, offload: Offload, act: Act, *, health: StoreHealth | None = None) -> None:
        self.offload = offload
        self.act = act
        #: Where a turn that failed because the store is away is counted, not logged.
        self.health = health or StoreHealth()
        self._running: dict[tuple[Key, Turn], asyncio.Task[None]] = {}

    def after_commit(self, key: Key, table: Table) -> None:
        """The table as just saved: start the turns of the computers it waits for."""
        if table.game_id is None or table.phase not in (Phase.DECLARING, Phase.ARRANGING):
            return
        for user in table.waiting_for():
            seat = table.seat_of(user)
            if seat.computer is None:
                continue
            turn: Turn = (user, table.game_id, table.phase, table.round)
            if (key, turn) in self._running:
                continue
            task = asyncio.get_running_loop().create_task(self._play(key, table, turn))
            self._running[(key, turn)] = task
            task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        for started, running in list(self._running.items()):
            if running is task:
                del self._running[started]

    async def _play(self, key: Key, table: Table, turn: Turn) -> None:
        user, _, phase, round_ = turn
        seat = table.seat_of(user)
        level = seat.computer
        assert level is not None
        try:
            if phase is Phase.DECLARING:
                opponents = 1 if table.spec.has_dealer else len(table.active) - 1
                play = await self.offload(
                    computer_declares,
                    table.spec,
                    round_,
                    seat.held,
                    opponents,
                    table.config.ante,
                    len(table.seats),
                    priority=Priority.DEADLINE,
                )

                async def declare(live: Table) -> list[Event]:
                    if not _still(live, turn):
                        return []
                    return list(live.declare(user, play))

                await self.act(key, declare)
            else:
                setting = await self.offload(
                    computer_sets, table.spec, level, seat.held, priority=Priority.DEADLINE
                )

                async def place(live: Table) -> list[Event]:
                    if not _still(live, turn):
                        return []
                    return list(live.place(user, setting, by="computer"))

                await self.act(key, place)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            # The deadline plays for a computer whose turn failed, as for a silent player.
            log_failure(
                log,
                self.health,
                error,
                "a computer's turn failed at the table in channel %s",
                key[1],
            )

    async def wait(self) -> None:
        """Wait until no turn is under way (the turns' own failures are logged, not raised)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def close(self) -> None:
        """Call off the turns under way (the deadline plays them after a restart)."""
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)


def _still(table: Table, turn: Turn) -> bool:
    """The turn is still the table's: same game, phase and declaration, the computer waited for."""
    user, game_id, phase, round_ = turn
    return (
        table.game_id == game_id
        and table.phase is phase
        and table.round == round_
        and user in table.waiting_for()
    )
