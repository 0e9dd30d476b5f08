"""What happens at a table between players' actions: a declaration revealed (its stakes
escrowed), the deadline's defaults set, the game settled, an idle lobby closed.

Each step changes the working copy of the table and adds its events to the action's batch; the
manager saves the result or, if a step fails, keeps the table as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from engine.cards import AnyCard
from engine.text import tr, tr_plural
from storage import Storage
from storage.errors import ShortOfChipsError, StaleHouseDayError
from storage.rows import Escrow, GameStatus, Holdings, Settlement
from tables.codec import encode_event
from tables.events import Event, ShowdownSettled, TableClosed
from tables.games import GameSpec
from tables.house_cap import is_capped
from tables.outbox import Batch, LockFirst, SaveSettles
from tables.phase import Phase
from tables.record import record_to_json
from tables.runtime import Offload, Priority
from tables.setting import Setting, Suggestion
from tables.settle import Result, settle_table
from tables.table import Table

#: How many times a settlement is retried when a balance changed under it.
SETTLE_ATTEMPTS = 3
#: At most so many games' chips read ahead at once (`Flow.read_ahead`); a game that ended
#: another way (a deadline, a cancel) leaves its reading to be dropped as others come.
READ_AHEAD = 1024
#: Sets the hands of a player who let the deadline pass (CPU work: it runs off the loop).
Arranger = Callable[[GameSpec, Sequence[AnyCard]], Setting]
#: The suggestion made already for a player of a game, if any (``Suggestions.ready``).
Prepared = Callable[[int, int], Suggestion | None]


class Flow:
    """The steps a table takes by itself once an action (or a deadline) lets it."""

    def __init__(
        self,
        storage: Storage,
        offload: Offload,
        clock: Callable[[], float],
        arranger: Arranger,
        prepared: Prepared | None = None,
    ) -> None:
        self.storage = storage
        self.offload = offload
        self.clock = clock
        self.arranger = arranger
        #: A silent player's suggestion made already (as the phase opened) sets their hands at
        #: the deadline without asking the workers again.
        self.prepared = prepared
        #: Each game's chips read as its last hands are awaited (`read_ahead`), by game.
        self._read_ahead: dict[int, asyncio.Future[Holdings]] = {}

    def is_quiet(self, table: Table) -> bool:
        """Whether `advance` would leave the store alone now: no stakes to escrow, no hands to
        set by the deadline, no game to settle. A step that moves chips is taken only under
        the table's lock in every process (`Database.take`); a quiet one may be claimed by
        the save alone."""
        now = self.clock()
        if table.phase is Phase.DECLARING:
            return not table.is_reveal_due(now)
        if table.phase is Phase.ARRANGING:
            return not table.is_expired(now) and not any(seat.kicked for seat in table.unset())
        return table.phase is Phase.LOBBY and not table.is_expired(now)

    async def advance(self, table: Table, batch: Batch) -> None:
        """Do everything now due at the table, in order, adding its events to ``batch``."""
        while True:
            now = self.clock()
            if table.phase is Phase.DECLARING and table.is_reveal_due(now):
                batch.add(*await self._reveal(table, now, batch))
            elif table.phase is Phase.ARRANGING and (
                table.is_expired(now) or any(seat.kicked for seat in table.unset())
            ):
                due = [s for s in table.unset() if s.kicked or table.is_expired(now)]
                for seat in due:
                    made = None
                    if self.prepared is not None and table.game_id is not None:
                        made = self.prepared(table.game_id, seat.user)
                    setting = (
                        made.setting
                        if made is not None
                        else await self.offload(
                            self.arranger, table.spec, seat.held, priority=Priority.DEADLINE
                        )
                    )
                    batch.add(*table.place(seat.user, setting, by="solver"))
            elif table.phase is Phase.SETTLING:
                await self._settle(table, batch)
            elif table.phase is Phase.LOBBY and table.is_expired(now):
                minutes = table.config.lobby_seconds // 60
                table.close()
                batch.add(
                    TableClosed(
                        tr_plural(
                            "No game started for {count} minute.",
                            "No game started for {count} minutes.",
                            minutes,
                        )
                    )
                )
            else:
                table.keep_lobby_open(now)
                return

    async def _reveal(self, table: Table, now: float, batch: Batch) -> list[Event]:
        """The declarations revealed, the stakes of those who play on escrowed. ``batch.covered``:
        players whose shortness refuses the action (`ShortOfChipsError`, nothing escrowed).
        With ``batch.save_only`` the stakes are handed to the save, which takes them in its own
        statement (PostgreSQL, a server's chips) or refuses, the action then run again under the
        table's lock: the reveal waits for one round trip, not three."""
        assert table.game_id is not None
        stakes = table.reveal_stakes()
        scoped = table.config.scope is not None
        if batch.save_only:
            if stakes and (scoped or not self.storage.database.functions):
                raise LockFirst
            if stakes:
                escrowed = dict(sorted(stakes.items()))
                batch.escrow = Escrow(table.game_id, escrowed, table.reveal_stakes_reason())
                return list(table.reveal(now, escrowed=escrowed))
            return list(table.reveal(now))
        short: list[int] = []
        escrowed = {}
        while stakes:
            try:
                escrowed = await self.storage.chips.escrow(
                    table.game_id, stakes, table.reveal_stakes_reason(), scoped=scoped
                )
                break
            except ShortOfChipsError as error:
                if batch.covered & set(error.shortfalls):
                    raise  # the declaration that revealed was short itself: it is refused
                # A player who cannot cover playing on surrenders (their balance fell meanwhile).
                short.extend(error.shortfalls)
                table.force_surrender(list(error.shortfalls))
                stakes = table.reveal_stakes()
        return list(table.reveal(now, short=short, escrowed=escrowed))

    async def _settle(self, table: Table, batch: Batch) -> None:
        assert table.game_id is not None
        if batch.save_only:
            await self._settle_in_save(table, batch)
            return
        # Under the lock the game is read now (what was read ahead, if anything, is let go).
        reading = self._read_ahead.pop(table.game_id, None)
        if reading is not None:
            reading.cancel()
        users = [seat.user for seat in table.staked]
        for attempt in range(1, SETTLE_ATTEMPTS + 1):
            # The game, its escrow, the balances and the day's winnings from the house, read at
            # once; the settlement checks them in its transaction.
            holdings = await self.storage.chips.holdings(
                table.game_id, table.scope, users, house_day=is_capped(table)
            )
            if holdings.status is GameStatus.REFUNDED:
                table.close()
                batch.add(TableClosed(tr("The game was refunded.")))
                return
            result, settling, outbox = await self._reckon(table, users, holdings, batch)
            try:
                settlement = await self.storage.chips.settle(
                    table.game_id,
                    result.transfers,
                    result=record_to_json(result.record),
                    outbox=outbox,
                    house_nets=result.house,
                    expected=holdings,
                    scoped=table.config.scope is not None,
                )
                break
            except (ShortOfChipsError, StaleHouseDayError):
                # A balance fell, or another game paid a player from the house, between
                # reading it and settling: read again.
                if attempt == SETTLE_ATTEMPTS:
                    raise
        self._finish(table, batch, result.event, settlement, settling, outbox)

    def read_ahead(self, table: Table) -> None:
        """Read the game's chips (`ChipRepository.holdings`) once one player is left to set
        hands at a table whose settlement its save can apply (PostgreSQL, a server's chips),
        without waiting: the setting that settles then waits for its save alone. The save
        checks that the game, its escrow and every balance read are still so (else the
        settlement runs again under the table's lock, on a reading of its own)."""
        if not self.storage.database.functions or table.config.scope is not None:
            return
        game_id = table.game_id
        if table.phase is not Phase.ARRANGING or game_id is None or len(table.unset()) != 1:
            return
        if game_id in self._read_ahead:
            return
        while len(self._read_ahead) >= READ_AHEAD:  # games that ended another way
            self._read_ahead.pop(next(iter(self._read_ahead))).cancel()
        reading = asyncio.ensure_future(
            self.storage.chips.holdings(
                game_id,
                table.scope,
                [seat.user for seat in table.staked],
                house_day=is_capped(table),
            )
        )
        # A reading that failed is read again when needed; its error is not left unretrieved.
        reading.add_done_callback(lambda done: done.cancelled() or done.exception())
        self._read_ahead[game_id] = reading

    async def read_ahead_done(self) -> None:
        """Wait for the readings under way (tests)."""
        await asyncio.gather(*self._read_ahead.values(), return_exceptions=True)

    def close(self) -> None:
        """Call off the readings still under way."""
        for reading in self._read_ahead.values():
            reading.cancel()
        self._read_ahead.clear()

    async def _read(self, table: Table, users: Sequence[int]) -> Holdings:
        """The game's chips: as read ahead, if they were read for these players, else now."""
        assert table.game_id is not None
        reading = self._read_ahead.pop(table.game_id, None)
        if reading is not None:
            with contextlib.suppress(Exception):
                holdings = await reading
                if set(holdings.balances) == set(users):
                    return holdings
        return await self.storage.chips.holdings(
            table.game_id, table.scope, users, house_day=is_capped(table)
        )

    async def _settle_in_save(self, table: Table, batch: Batch) -> None:
        """The settlement worked out from the game as read now, for the save to apply in its
        own statement (`Batch.settle`), which checks that the game is still as read: the
        setting that settles waits for two round trips (the reading, the save), not four. A
        step the save cannot take (a reveal's stakes still to take, a game whose chips live
        in a scope of their own, SQLite) or a game not open has the action run again under the
        table's lock (`LockFirst`), where the settlement is taken the slower way."""
        assert table.game_id is not None
        scoped = table.config.scope is not None
        if batch.escrow is not None or scoped or not self.storage.database.functions:
            raise LockFirst
        users = [seat.user for seat in table.staked]
        holdings = await self._read(table, users)
        if holdings.status is not GameStatus.OPEN:
            raise LockFirst
        result, settling, outbox = await self._reckon(table, users, holdings, batch)
        call = self.storage.chips.settle_call(
            table.game_id,
            result.transfers,
            result=record_to_json(result.record),
            outbox=outbox,
            house_nets=result.house,
            expected=holdings,
        )
        if call is None:
            raise LockFirst
        batch.settle = SaveSettles(call, settling, outbox)
        # Its showdown is queued by the save's statement (`TableManager._save`).
        self._finish(table, batch, result.event, call.planned, [], [])

    async def _reckon(
        self, table: Table, users: Sequence[int], holdings: Holdings, batch: Batch
    ) -> tuple[Result, list[Event], list[dict[str, Any]]]:
        """The settlement worked out from the game as read, and the events its transaction
        queues (the showdown and what led to it) with their payloads."""
        # A practice table has nothing at stake.
        available = {} if table.config.practice else holdings.available(users)
        result: Result = await self.offload(
            settle_table, table, available, holdings.house_day, priority=Priority.SETTLE
        )
        settling = [*batch.unqueued, result.event]
        return result, settling, [encode_event(e) for e in settling]

    def _finish(
        self,
        table: Table,
        batch: Batch,
        event: ShowdownSettled,
        settlement: Settlement,
        settling: Sequence[Event],
        outbox: Sequence[dict[str, Any]],
    ) -> None:
        """The game over: its showdown among the action's events, the table on to its next."""
        if settlement.repeated:
            # The first settlement queued its showdown; this one is only returned.
            event = replace(event, nets={u: settlement.nets.get(u, 0) for u in table.players})
            batch.events.append(event)
        else:
            batch.unqueued.clear()
            batch.events.append(event)
            # Its lanes take the showdown from memory, as they take a save's events.
            batch.queued_with(settlement.queued, settling, outbox)
        table.finish()
        if table.phase is Phase.CLOSED:
            batch.add(TableClosed(tr("No players are left at the table.")))
