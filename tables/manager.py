"""Every live table of the bot: actions in, chips escrowed and settled, snapshots saved, events out.

One lock per channel keeps a table's actions in order; tables in other channels run meanwhile.
Each action works on a copy of the table and replaces it only once the database has the new
snapshot, so an action that fails (a short balance, a crash) leaves the table as it was. Stakes
are escrowed before the snapshot that needs them is saved: a crash in between leaves extra
collateral in escrow, which the settlement or a refund returns, never a missing chip.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from engine.cards import AnyCard
from engine.errors import GameError
from storage import Storage
from storage.errors import SeatTakenError, ShortOfChipsError, StaleSnapshotError
from storage.rows import GameStatus
from tables.codec import decode_event, encode_event
from tables.events import (
    Event,
    GameCancelled,
    ShowdownSettled,
    TableAbandoned,
    TableClosed,
)
from tables.games import GameSpec
from tables.hands import Setting, Suggestion, default_setting, suggest_setting
from tables.settle import Result, settle_table
from tables.table import Phase, Table, TableConfig

log = logging.getLogger(__name__)

Key = tuple[int, int]
T = TypeVar("T")
#: Sets the hands of a player who let the deadline pass (CPU work: it runs in a thread).
Arranger = Callable[[GameSpec, Sequence[AnyCard]], Setting]
#: How many times a settlement is retried when a balance changed under it.
SETTLE_ATTEMPTS = 3
#: A failed deadline or settlement is tried again after this many seconds, doubling each time.
RETRY_FIRST_S = 5.0
RETRY_MAX_S = 300.0


class Publisher(Protocol):
    """Where a table's events go (the bot's cogs; a list in tests)."""

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        """Show the events in the channel (and the private ones to their player)."""


class Timer(Protocol):
    """A scheduled callback that can be called off."""

    def cancel(self) -> bool:
        """Call it off; True if it had not run yet."""


class Scheduler(Protocol):
    """Runs a callback after a delay (deadlines are cancellable timers, never bare waits)."""

    def schedule(self, delay: float, callback: Callable[[], Awaitable[None]]) -> Timer:
        """Run ``callback`` after ``delay`` seconds."""


class AsyncioScheduler:
    """Deadlines as tasks sleeping on the running loop (virtual time in simcord follows them)."""

    def schedule(self, delay: float, callback: Callable[[], Awaitable[None]]) -> Timer:
        """A task that sleeps ``delay`` seconds and then runs ``callback``."""

        async def fire() -> None:
            await asyncio.sleep(max(0.0, delay))
            await callback()

        return asyncio.get_running_loop().create_task(fire())


class Offload(Protocol):
    """Runs CPU work (the solver, a settlement) away from the event loop and awaits its result."""

    async def __call__(self, work: Callable[..., T], /, *args: Any) -> T:
        """``work(*args)``, computed elsewhere."""


class ThreadOffload:
    """CPU work in the loop's default thread pool: simple, but it shares the GIL with the loop."""

    async def __call__(self, work: Callable[..., T], /, *args: Any) -> T:
        """``work(*args)`` in a thread."""
        return await asyncio.to_thread(work, *args)

    def close(self) -> None:
        """Nothing to release."""


class ProcessOffload:
    """CPU work in worker processes: the solver never holds the loop's GIL (the bot's choice)."""

    def __init__(self, workers: int | None = None) -> None:
        # spawn: a forked child would inherit the database connection's thread and locks.
        context = multiprocessing.get_context("spawn")
        self.workers = workers or os.cpu_count() or 1
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_ignore_interrupts
        )

    async def start(self, warm_up: Callable[[], object] | None = None) -> None:
        """Start every worker now (starting one blocks the caller) and let each load its tables."""
        work = warm_up or _nothing
        await asyncio.gather(*(self(work) for _ in range(2 * self.workers)))

    async def __call__(self, work: Callable[..., T], /, *args: Any) -> T:
        """``work(*args)`` in a worker process (``work`` must be a module-level function)."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)

    def close(self) -> None:
        """Stop the workers."""
        self.pool.shutdown(wait=True, cancel_futures=True)


@dataclass(slots=True)
class _Batch:
    """One action's events: all of them (what the action returns) and those not yet queued."""

    events: list[Event] = field(default_factory=list)
    unqueued: list[Event] = field(default_factory=list)

    def add(self, *events: Event) -> None:
        self.events.extend(events)
        self.unqueued.extend(events)

    def take(self) -> list[dict[str, Any]]:
        """The unqueued events as outbox payloads; they count as queued from now on."""
        payload = [encode_event(event) for event in self.unqueued]
        self.unqueued.clear()
        return payload

    @property
    def settled(self) -> bool:
        return any(isinstance(event, ShowdownSettled) for event in self.events)


class TableManager:
    """The tables of every channel, with their storage, deadlines and events."""

    def __init__(
        self,
        storage: Storage,
        publisher: Publisher,
        *,
        clock: Callable[[], float] = time.time,
        scheduler: Scheduler | None = None,
        rng: random.Random | None = None,
        arranger: Arranger = default_setting,
        offload: Offload | None = None,
    ) -> None:
        self.storage = storage
        self.publisher = publisher
        self.clock = clock
        self.scheduler = scheduler or AsyncioScheduler()
        self.rng = rng or random.SystemRandom()
        self.arranger = arranger
        self.offload: Offload = offload or ThreadOffload()
        self._tables: dict[Key, Table] = {}
        self._versions: dict[Key, int] = {}
        self._locks: dict[Key, asyncio.Lock] = {}
        self._timers: dict[Key, Timer] = {}
        #: Failed attempts in a row per table, for the retry's back-off.
        self._failures: dict[Key, int] = {}

    # ----- reading -------------------------------------------------------------------------

    def table(self, guild_id: int, channel_id: int) -> Table | None:
        """A copy of the channel's table, or None (changing it changes nothing)."""
        table = self._tables.get((guild_id, channel_id))
        return None if table is None else table.copy()

    def tables(self) -> tuple[Table, ...]:
        """Copies of every open table."""
        return tuple(t.copy() for t in self._tables.values())

    def table_of(self, guild_id: int, user: int) -> Table | None:
        """A copy of the table where the player sits on this server, or None."""
        for (guild, _), table in self._tables.items():
            if guild == guild_id and table.is_seated(user):
                return table.copy()
        return None

    def key_of(self, channel_id: int) -> Key | None:
        """The (server, channel) of the table in this channel, or None."""
        return next((key for key in self._tables if key[1] == channel_id), None)

    def find_game(self, game_id: int) -> Key | None:
        """The (server, channel) of the table playing this game now, or None."""
        for key, table in self._tables.items():
            if table.game_id == game_id and table.in_game:
                return key
        return None

    def _check_free(self, guild_id: int, channel_id: int, user: int) -> None:
        seated = self.table_of(guild_id, user)
        if seated is not None and seated.channel_id != channel_id:
            raise SeatTakenError(user, seated.channel_id)

    def _get(self, key: Key) -> Table:
        table = self._tables.get(key)
        if table is None:
            raise GameError("There is no table in this channel; open one with `/table create`.")
        return table

    def _lock(self, key: Key) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())

    # ----- actions -------------------------------------------------------------------------

    async def _act(
        self,
        key: Key,
        action: Callable[[Table], Awaitable[list[Event]]],
        *,
        missing_ok: bool = False,
    ) -> tuple[Event, ...]:
        async with self._lock(key):
            if missing_ok and key not in self._tables:
                return ()  # closed while this waited for the lock: nothing left to do
            work = self._get(key).copy()
            batch = _Batch()
            try:
                batch.add(*await action(work))
                await self._advance(work, batch)
                await self._commit(key, work, batch)
            except Exception:
                self._retry_later(key, settled=batch.settled)
                raise
            finally:
                # Whatever did commit (a settlement's showdown included) is shown.
                await self._drain(key)
            self._failures.pop(key, None)
            return tuple(batch.events)

    def _retry_later(self, key: Key, *, settled: bool) -> None:
        """After a failure, make sure a table with work due tries again (never a wedged table).

        The table is as it was before the action. If its deadline has passed, its settlement is
        pending, or the failed action had already settled the game in the database, nothing else
        would ever move it: a timer tries again, backing off while the failure lasts.
        """
        table = self._tables.get(key)
        if table is None or (key in self._timers and not settled):
            return
        due = settled or table.phase is Phase.SETTLING or table.is_expired(self.clock())
        if not due:
            return
        self._cancel_timer(key)
        failures = self._failures[key] = self._failures.get(key, 0) + 1
        delay = min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (failures - 1))
        log.warning("table in channel %s will try again in %.0f s", key[1], delay)
        self._schedule(key, delay)

    async def _drain(self, key: Key) -> None:
        """Show the channel's queued events in order, then forget them."""
        try:
            rows = await self.storage.outbox.pending(*key)
            if not rows:
                return
            events: list[Event] = []
            for row in rows:
                try:
                    events.append(decode_event(row.event))
                except GameError:
                    log.exception("dropped a damaged event of channel %s", key[1])
            await self._publish(key, tuple(events))
            await self.storage.outbox.remove([row.id for row in rows])
        except Exception:
            # The events stay queued: the next action here, or the next start, shows them.
            log.exception("could not read the queued events of channel %s", key[1])

    async def publish_pending(self) -> int:
        """Show every event still queued (after a restart, once Discord is reachable)."""
        keys = await self.storage.outbox.channels()
        for key in keys:
            async with self._lock(key):
                await self._drain(key)
        return len(keys)

    async def _publish(self, key: Key, events: tuple[Event, ...]) -> None:
        # The table has changed and is saved: showing it may fail (Discord is down, a picture
        # fails), but that must not turn a done action into an error for the player.
        try:
            await self.publisher.publish(key[0], key[1], events)
        except Exception:
            log.exception("could not show the events of channel %s", key[1])

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host: int,
        config: TableConfig,
        *,
        name: str | None = None,
    ) -> tuple[Event, ...]:
        """Open a table in the channel with the host seated (``name``: how the host shows)."""
        key = (guild_id, channel_id)
        async with self._lock(key):
            if key in self._tables:
                raise GameError("This channel already has a table; join it or cancel it first.")
            self._check_free(guild_id, channel_id, host)
            await self.storage.players.get_or_create(guild_id, host, name=name)
            server = await self.storage.settings.get(guild_id)
            config = replace(config, lobby_seconds=server.lobby_minutes * 60)
            table = Table.open(guild_id, channel_id, host, config)
            table.keep_lobby_open(self.clock())
            batch = _Batch()
            batch.add(*table.opened())
            await self._commit(key, table, batch)
            await self._drain(key)
            return tuple(batch.events)

    async def join(
        self, guild_id: int, channel_id: int, user: int, *, name: str | None = None
    ) -> tuple[Event, ...]:
        """Take a seat (a second click changes nothing; ``name``: how the player shows)."""
        self._check_free(guild_id, channel_id, user)

        async def join(table: Table) -> list[Event]:
            table.verify_join(user)
            self._check_free(guild_id, channel_id, user)
            await self.storage.players.get_or_create(guild_id, user, name=name)
            return list(table.join(user))

        return await self._act((guild_id, channel_id), join)

    async def leave(self, guild_id: int, channel_id: int, user: int) -> tuple[Event, ...]:
        """Leave the lobby."""

        async def leave(table: Table) -> list[Event]:
            events = list(table.leave(user))
            if table.phase is Phase.CLOSED:
                events.append(TableClosed("Everyone left the table."))
            return events

        return await self._act((guild_id, channel_id), leave)

    async def kick(self, guild_id: int, channel_id: int, by: int, user: int) -> tuple[Event, ...]:
        """The host removes a player; mid-game the table plays for them."""
        return await self._act(
            (guild_id, channel_id), lambda table: _ready(list(table.kick(by, user, self.clock())))
        )

    async def start(self, guild_id: int, channel_id: int, by: int) -> tuple[Event, ...]:
        """Escrow everyone's ante (all or nobody's), deal, and open the first phase."""

        async def start(table: Table) -> list[Event]:
            table.verify_start(by)
            game = await self.storage.games.create(
                guild_id=guild_id,
                channel_id=channel_id,
                variant=table.spec.name,
                seats=list(table.players),
            )
            stakes = table.start_stakes()
            if stakes:
                try:
                    await self.storage.chips.escrow(game.id, stakes, table.start_stakes_reason())
                except ShortOfChipsError:
                    await self.storage.chips.refund(game.id, "not started: a player was short")
                    raise
            seed = self.rng.getrandbits(63)
            return list(table.start(by, game_id=game.id, seed=seed, now=self.clock()))

        return await self._act((guild_id, channel_id), start)

    async def declare(
        self, guild_id: int, channel_id: int, user: int, play: bool
    ) -> tuple[Event, ...]:
        """A secret play-or-surrender choice; the reveal comes when all are in."""

        async def declare(table: Table) -> list[Event]:
            table.verify_declare(user)
            needed = table.play_cost()
            if play and needed:
                balance = await self.storage.players.balance(guild_id, user)
                if needed > balance:
                    raise GameError(
                        f"Playing on costs {needed} chips and you have {balance}; "
                        "surrender instead."
                    )
            return list(table.declare(user, play))

        return await self._act((guild_id, channel_id), declare)

    async def submit(
        self,
        guild_id: int,
        channel_id: int,
        user: int,
        text: str,
        automatic: str | None = None,
    ) -> tuple[Event, ...]:
        """Set (or replace) a player's hands; a fouled setting is refused with the reason."""
        return await self._act(
            (guild_id, channel_id),
            lambda table: _ready(list(table.submit(user, text, automatic))),
        )

    async def suggest(self, guild_id: int, channel_id: int, user: int) -> Suggestion:
        """The solver's setting of the player's cards (nothing changes until they submit it)."""
        table = self._get((guild_id, channel_id))
        seat = table.seat_of(user)
        if table.phase is not Phase.ARRANGING or not seat.is_active:
            raise GameError("There are no hands of yours to set now.")
        return await self.offload(suggest_setting, table.spec, seat.held)

    def hand(self, guild_id: int, channel_id: int, user: int) -> tuple[AnyCard, ...]:
        """The cards the player holds in this channel's game."""
        table = self._get((guild_id, channel_id))
        seat = table.seat_of(user)
        if not table.in_game:
            raise GameError("No game is under way at this table.")
        return seat.held

    async def cancel(
        self, guild_id: int, channel_id: int, by: int, *, is_admin: bool = False
    ) -> tuple[Event, ...]:
        """Close the table; a game under way is refunded, every escrowed chip returned."""

        async def cancel(table: Table) -> list[Event]:
            table.verify_cancel(by, is_admin=is_admin)
            events: list[Event] = []
            if table.game_id is not None:
                game = await self.storage.games.get(table.game_id)
                # A game that settled already keeps its result (its showdown is queued).
                if game is None or game.status is GameStatus.OPEN:
                    refunds = await self.storage.chips.refund(table.game_id, "game cancelled")
                    events.append(GameCancelled(table.game_id, by, refunds, "cancelled"))
            table.close()
            events.append(TableClosed("The table was cancelled."))
            return events

        return await self._act((guild_id, channel_id), cancel)

    async def abandon(self, guild_id: int, channel_id: int, reason: str) -> tuple[Event, ...]:
        """The channel is gone (deleted, or out of the bot's reach): refund, close, tell by DM."""

        async def abandon(table: Table) -> list[Event]:
            refunds: dict[int, int] = {}
            if table.in_game and table.game_id is not None:
                game = await self.storage.games.get(table.game_id)
                if game is not None and game.status is GameStatus.OPEN:
                    refunds = await self.storage.chips.refund(table.game_id, reason)
            players, game_id = table.players, table.game_id if table.in_game else None
            table.close()
            return [TableAbandoned(table.spec.name, players, refunds, reason, game_id)]

        return await self._act((guild_id, channel_id), abandon, missing_ok=True)

    async def abandon_guild(self, guild_id: int, reason: str) -> int:
        """Every table of a server the bot can no longer reach; how many there were."""
        keys = [key for key in self._tables if key[0] == guild_id]
        for key in keys:
            await self.abandon(*key, reason)
        return len(keys)

    async def expire(self, guild_id: int, channel_id: int) -> tuple[Event, ...]:
        """Do what is due: a passed deadline's defaults, a reveal, a settlement."""
        return await self._act((guild_id, channel_id), self._catch_up, missing_ok=True)

    async def _catch_up(self, table: Table) -> list[Event]:
        """Take in what the database already knows: a game settled or refunded meanwhile.

        A settlement can commit while the save after it fails; the table then still shows the
        game under way, and this moves it on (the showdown itself is in the outbox).
        """
        if table.game_id is None or not table.in_game:
            return []
        game = await self.storage.games.get(table.game_id)
        if game is None or game.status is GameStatus.REFUNDED:
            table.close()
            return [TableClosed("The game was refunded.")]
        if game.status is GameStatus.SETTLED:
            table.finish()
            if table.phase is Phase.CLOSED:
                return [TableClosed("No players are left at the table.")]
        return []

    # ----- the flow between actions ---------------------------------------------------------

    async def _advance(self, table: Table, batch: _Batch) -> None:
        while True:
            now = self.clock()
            if table.phase is Phase.DECLARING and table.is_reveal_due(now):
                batch.add(*await self._reveal(table, now))
            elif table.phase is Phase.ARRANGING and (
                table.is_expired(now) or any(seat.kicked for seat in table.unset())
            ):
                due = [s for s in table.unset() if s.kicked or table.is_expired(now)]
                for seat in due:
                    setting = await self.offload(self.arranger, table.spec, seat.held)
                    batch.add(*table.place(seat.user, setting, by="solver"))
            elif table.phase is Phase.SETTLING:
                await self._settle(table, batch)
            elif table.phase is Phase.LOBBY and table.is_expired(now):
                minutes = table.config.lobby_seconds // 60
                table.close()
                batch.add(TableClosed(f"No game started for {minutes} minutes."))
            else:
                table.keep_lobby_open(now)
                return

    async def _reveal(self, table: Table, now: float) -> list[Event]:
        assert table.game_id is not None
        stakes = table.reveal_stakes()
        short: list[int] = []
        escrowed: dict[int, int] = {}
        while stakes:
            try:
                escrowed = await self.storage.chips.escrow(
                    table.game_id, stakes, table.reveal_stakes_reason()
                )
                break
            except ShortOfChipsError as error:
                # A player who cannot cover playing on surrenders (their balance fell meanwhile).
                short.extend(error.shortfalls)
                table.force_surrender(list(error.shortfalls))
                stakes = table.reveal_stakes()
        return list(table.reveal(now, short=short, escrowed=escrowed))

    async def _available(self, table: Table) -> dict[int, int]:
        assert table.game_id is not None
        held = await self.storage.chips.escrowed(table.game_id)
        return {
            user: await self.storage.players.balance(table.guild_id, user) + held.get(user, 0)
            for user in table.players
        }

    async def _settle(self, table: Table, batch: _Batch) -> None:
        assert table.game_id is not None
        game = await self.storage.games.get(table.game_id)
        if game is not None and game.status is GameStatus.REFUNDED:
            table.close()
            batch.add(TableClosed("The game was refunded."))
            return
        for attempt in range(1, SETTLE_ATTEMPTS + 1):
            available = await self._available(table)
            result: Result = await self.offload(settle_table, table, available)
            # The showdown (and what led to it) is queued in the settlement's own transaction.
            outbox = [*(encode_event(e) for e in batch.unqueued), encode_event(result.event)]
            try:
                settlement = await self.storage.chips.settle(
                    table.game_id, result.transfers, result=result.record, outbox=outbox
                )
                break
            except ShortOfChipsError:
                # A balance fell between reading it and settling: read again.
                if attempt == SETTLE_ATTEMPTS:
                    raise
        event: ShowdownSettled = result.event
        if settlement.repeated:
            # The first settlement queued its showdown; this one is only returned.
            event = replace(event, nets={u: settlement.nets.get(u, 0) for u in table.players})
            batch.events.append(event)
        else:
            batch.unqueued.clear()
            batch.events.append(event)
        table.finish()
        if table.phase is Phase.CLOSED:
            batch.add(TableClosed("No players are left at the table."))

    async def _commit(self, key: Key, table: Table, batch: _Batch) -> None:
        """Save the table with its events queued; only then replace the live one and its timer.

        A failed save leaves the live table, its version and its timer as they were.
        """
        if table.phase is Phase.CLOSED:
            await self.storage.snapshots.delete(*key, events=batch.take())
            self._tables.pop(key, None)
            self._versions.pop(key, None)
            self._cancel_timer(key)
            return
        try:
            snapshot = await self.storage.snapshots.save(
                guild_id=key[0],
                channel_id=key[1],
                state=table.to_state(),
                game_id=table.game_id,
                expected_version=self._versions.get(key, 0),
                players=table.players,
                events=batch.take(),
            )
        except StaleSnapshotError as error:
            raise GameError("This table was changed elsewhere; try again.") from error
        self._tables[key] = table
        self._versions[key] = snapshot.version
        self._cancel_timer(key)
        self._arm(key, table)

    def _cancel_timer(self, key: Key) -> None:
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()

    def _arm(self, key: Key, table: Table) -> None:
        if table.phase is Phase.SETTLING:
            self._schedule(key, 0.0)
        elif table.deadline is not None:
            self._schedule(key, max(0.0, table.deadline - self.clock()))

    def _schedule(self, key: Key, delay: float) -> None:
        async def fire() -> None:
            self._timers.pop(key, None)
            try:
                await self.expire(*key)
            except Exception:
                # A timer has nobody to answer: log it; the failed action armed a retry.
                log.exception("deadline of the table in channel %s failed", key[1])

        self._timers[key] = self.scheduler.schedule(delay, fire)

    # ----- restarts ------------------------------------------------------------------------

    async def resume(self) -> int:
        """Bring back every saved table with its deadline re-armed; refund games left without one.

        Returns how many tables came back.
        """
        live: set[int] = set()
        for snapshot in await self.storage.snapshots.load_all():
            key = (snapshot.guild_id, snapshot.channel_id)
            try:
                table = Table.from_state(snapshot.state)
            except GameError:
                log.exception("could not read the table of channel %s", key[1])
                await self.storage.snapshots.delete(*key)
                continue
            if table.in_game:
                # A game settled or refunded while the table was down moves the table on.
                if await self._catch_up(table):
                    await self.storage.snapshots.delete(*key)
                    continue
                if not table.in_game:
                    await self._save_resumed(key, table, snapshot.version)
                    continue
                assert table.game_id is not None
                live.add(table.game_id)
            if table.deadline is None:
                # A lobby saved before lobbies expired: its idle time starts now.
                table.keep_lobby_open(self.clock())
            self._tables[key] = table
            self._versions[key] = snapshot.version
            self._arm(key, table)
        for game in await self.storage.games.list_open():
            if game.id not in live:
                # Its table was lost (a crash before the table's first snapshot of the game).
                await self.storage.chips.refund(game.id, "game lost in a restart")
        return len(self._tables)

    async def _save_resumed(self, key: Key, table: Table, version: int) -> None:
        self._versions[key] = version
        await self._commit(key, table, _Batch())

    async def close(self) -> None:
        """Call off every deadline (the tables stay saved for the next start)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C (SIGINT to the whole process group) to the bot, which stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _nothing() -> None:
    """A task that only proves a worker is up."""


async def _ready(events: list[Event]) -> list[Event]:
    return events
