"""Every live table of the bot: actions in, chips escrowed and settled, snapshots saved, events out.

One lock per channel keeps a table's actions in order; tables in other channels run meanwhile.
Each action works on a copy of the table and replaces it only once the database has the new
snapshot, so an action that fails (a short balance, a crash) leaves the table as it was. A
Start's game, antes and snapshot commit in one transaction. A declaration's stakes are escrowed
before the snapshot that needs them is saved: a crash in between leaves extra collateral in
escrow, which the settlement or a refund returns, never a missing chip.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from engine.cards import AnyCard
from engine.errors import GameError
from engine.players import level_named
from engine.text import Term, Text, tr
from storage import Storage
from storage.database import Held
from storage.errors import SeatTakenError, ShortOfChipsError, StaleSnapshotError
from storage.rows import Cover, GameStatus
from tables.computers import is_computer
from tables.config import TableConfig
from tables.deadlines import Deadlines, due_at
from tables.events import (
    Event,
    GameCancelled,
    TableAbandoned,
    TableClosed,
)
from tables.features import listening_features
from tables.flow import Arranger, Flow
from tables.hands import Setting, Suggestion, default_setting
from tables.live import LiveTables, TableReader
from tables.outbox import Batch, LockFirst, Outbox
from tables.phase import Phase
from tables.runtime import (
    TABLE_LOCK,
    Activity,
    AsyncioScheduler,
    Offload,
    Priority,
    Publisher,
    Scheduler,
    ThreadOffload,
    default_process_id,
)
from tables.seat import SeatState
from tables.server import Server
from tables.snapshot import table_from_state
from tables.subscribers import Subscriber
from tables.suggestions import Suggestions, first_answer
from tables.table import Table
from tables.turns import ComputerTurns

log = logging.getLogger(__name__)

Key = tuple[int, int]

#: What an action at a channel without a table, or at a table in its lobby, is told.
NO_TABLE: Final = tr(
    "There is no table in this channel; open one with `/{table} {create}`.",
    table=Term("table"),
    create=Term("create"),
)
#: The host of a table a program runs: nobody.
NOBODY: Final = 0
NO_GAME: Final = tr("No game is under way at this table; the host deals one with **Start**.")


class TableManager(TableReader):
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
        background_publishing: bool = True,
        prepare_suggestions: bool = False,
        process_id: str | None = None,
        subscribers: Sequence[Subscriber] | None = None,
    ) -> None:
        self.storage = storage
        self.publisher = publisher
        self.clock = clock
        self.scheduler = scheduler or AsyncioScheduler()
        self.rng = rng or random.SystemRandom()
        self.offload: Offload = offload or ThreadOffload()
        self.live = LiveTables(storage.snapshots, shared=storage.database.is_shared)
        self.outbox = Outbox(
            storage.outbox,
            publisher,
            subscribers=listening_features(storage) if subscribers is None else subscribers,
            background=background_publishing,
            lock=storage.database.lock,
            scheduler=self.scheduler,
            clock=clock,
            health=storage.database.health,
        )
        self.deadlines = Deadlines(
            self.scheduler,
            clock,
            self.expire,
            claims=storage.deadlines,
            process_id=process_id or default_process_id(),
            health=storage.database.health,
        )
        self.activity = Activity()
        self.suggestions = Suggestions()
        #: Every person's suggestion is asked for as the hands are to be set (the bot's way).
        self.prepare_suggestions = prepare_suggestions
        prepared = self.suggestions.ready if prepare_suggestions else None
        self.flow = Flow(storage, self.offload, self.clock, arranger, prepared)
        # A computer's decision that comes back to a table closed meanwhile has nothing to do.
        self.turns = ComputerTurns(
            self.offload,
            functools.partial(self._act, missing_ok=True),
            health=storage.database.health,
        )

    @property
    def arranger(self) -> Arranger:
        """What sets the hands of a player who let the deadline pass."""
        return self.flow.arranger

    @arranger.setter
    def arranger(self, arranger: Arranger) -> None:
        self.flow.arranger = arranger

    # ----- reading -------------------------------------------------------------------------

    async def _check_free(self, guild_id: int, channel_id: int, user: int) -> None:
        seated = await self.live.seat_of(guild_id, user)
        if seated is not None and seated[1] != channel_id:
            raise SeatTakenError(user, seated[1])

    async def _get(self, key: Key) -> Table:
        table = await self.live.get(key)
        if table is None:
            raise GameError(NO_TABLE)
        return table

    def _lock(
        self, key: Key, *, deferred: bool = False
    ) -> contextlib.AbstractAsyncContextManager[Held]:
        # One action at a table at a time, in every process of the bot (an advisory lock on
        # PostgreSQL, released by the server if this process dies holding it), with the
        # version of the table's snapshot read in the statement that takes it. Deferred, the
        # server's part is taken only if the action needs it, else claimed by the save.
        read = self.storage.snapshots.version_read(*key) if self.live.shared else None
        return self.storage.database.lock(TABLE_LOCK, key, read=read, deferred=deferred)

    async def server(self, guild_id: int) -> Server:
        """The server's settings as they are now: the one place they are read, once per action
        (a command that reads them for its own use hands them to the action it calls)."""
        return Server.of(await self.storage.settings.get(guild_id))

    async def _under_server(self, table: Table, server: Server | None = None) -> None:
        """Apply the server's policies as they are now (its cap on computers, its lobbies' idle
        time): an admin may have changed them since the table opened."""
        server = server or await self.server(table.guild_id)
        table.config = server.govern(table.config)

    # ----- actions -------------------------------------------------------------------------

    async def _act(
        self,
        key: Key,
        action: Callable[[Table], Awaitable[list[Event]]],
        *,
        missing_ok: bool = False,
        one_transaction: bool = False,
        deferred: bool = False,
        covers: Sequence[Cover] = (),
    ) -> tuple[Event, ...]:
        """Run ``action`` on a copy of the table, let the table move on, save it, publish.

        With ``one_transaction`` what the action writes and the snapshot commit together or not
        at all (Start: the game, the antes' escrow and the deal); otherwise each repository call
        is its own transaction, and the snapshot is saved last.

        ``deferred`` (a player's click, which writes nothing before the save): with PostgreSQL
        the action works on the table as this process holds it, without asking the server for
        the table's lock and version first; the save claims the lock for its own commit and
        checks the version. The lock is taken before anything that moves chips (a reveal's
        escrow, a settlement), and when the save finds the table changed or locked by another
        process, or the action refuses, the table is read again under the lock and the action
        run again on it (a refusal stands if the table had not changed).

        ``covers``: chips a player must hold, which the action names as it runs (a declaration
        to play on): the save checks them in its own statement (`Cover`), or, if the table moves
        chips on (a reveal), its escrow refuses the action when that player is short.
        """
        async with self.activity.working():
            async with self._lock(key, deferred=deferred and not one_transaction) as held:
                while True:
                    table = await self.live.get(key, held)
                    if table is None:
                        if missing_ok:
                            return ()  # closed while this waited for the lock: nothing to do
                        raise GameError(NO_TABLE)
                    acted_on = self.live.version(key)
                    work = table.copy()
                    batch = Batch()
                    unit = (
                        self.storage.database.transaction()
                        if one_transaction
                        else contextlib.nullcontext()
                    )
                    try:
                        async with unit:
                            batch.add(*await action(work))
                            quiet = self.flow.is_quiet(work)
                            if not quiet:
                                batch.covered = {cover.user_id for cover in covers}
                            # Not yet under every process's lock, the table moves on as far
                            # as its save alone may take it (a reveal's stakes escrowed by
                            # the save's own statement); a step that needs the chips first (a
                            # settlement) has the action run again under the lock, on the
                            # table as saved.
                            batch.save_only = not held.taken
                            try:
                                await self.flow.advance(work, batch)
                            except LockFirst:
                                await self.storage.database.take(held)
                                continue
                            # Alone, the save lets the table's lock go with its commit.
                            version = await self._save(
                                key,
                                work,
                                batch,
                                held,
                                cover=covers[0] if covers and quiet else None,
                            )
                        self._adopt(key, work, version)
                    except Exception as error:
                        if not held.taken and await self._acted_on_old(held, acted_on, error):
                            continue
                        live = self.live.held(key)
                        if live is not None:
                            self.deadlines.retry(key, live, settled=batch.settled)
                        # Whatever did commit (a settlement's showdown included) is shown.
                        await self.outbox.after_commit(key)
                        raise
                    self.deadlines.succeeded(key)
                    break
            # Shown once the table is released: the next action here need not wait for Discord.
            await self.outbox.after_commit(key, batch.rows)
            self.turns.after_commit(key, work)
            self._prepare(work)
            self.flow.read_ahead(work)
            return tuple(batch.events)

    async def _acted_on_old(self, held: Held, acted_on: int, error: Exception) -> bool:
        """Whether a deferred action that failed before holding the table's lock in every
        process must run again: it is taken now, with the table's version. A save that found
        the table changed or locked elsewhere runs again; a refusal (the action's own), only
        if the table had changed meanwhile."""
        if not isinstance(error, GameError):
            return False
        await self.storage.database.take(held)
        return isinstance(error, StaleSnapshotError) or held.value != acted_on

    def _prepare(self, table: Table) -> None:
        """Ask for the suggestion of each person who has hands to set and has not set them,
        without waiting (once per game and player: asking again changes nothing)."""
        if not self.prepare_suggestions or table.phase is not Phase.ARRANGING:
            return
        if table.game_id is None or table.deadline is None:
            return
        for seat in table.unset():
            if not is_computer(seat.user):
                self.suggestions.prepare(
                    self.offload,
                    table.spec,
                    seat.held,
                    game_id=table.game_id,
                    user=seat.user,
                    deadline=table.deadline,
                )

    async def publish_pending(self) -> int:
        """Hand every event still queued to the publisher and the subscribers (after a
        restart, once Discord is reachable)."""
        keys = await self.storage.outbox.channels()
        for key in keys:
            await self.outbox.drain(key)
        return len(keys)

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host: int,
        config: TableConfig,
        *,
        name: str | None = None,
        server: Server | None = None,
    ) -> tuple[Event, ...]:
        """Open a table in the channel with the host seated (``name``: how the host shows;
        ``server``: the server's settings as the command read them for the table's defaults)."""
        key = (guild_id, channel_id)
        async with self.activity.working():
            async with self._lock(key) as held:
                if await self.live.get(key, held) is not None:
                    raise GameError(
                        tr("This channel already has a table; join it or cancel it first.")
                    )
                await self._check_free(guild_id, channel_id, host)
                await self.storage.players.get_or_create(guild_id, host, name=name)
                table = Table.open(guild_id, channel_id, host, config)
                await self._under_server(table, server)
                table.keep_lobby_open(self.clock())
                batch = Batch()
                batch.add(*table.opened())
                await self._commit(key, table, batch, held)
            await self.outbox.after_commit(key, batch.rows)
            return tuple(batch.events)

    async def join(
        self, guild_id: int, channel_id: int, user: int, *, name: str | None = None
    ) -> tuple[Event, ...]:
        """Take a seat (a second click changes nothing; ``name``: how the player shows)."""
        await self._check_free(guild_id, channel_id, user)

        async def join(table: Table) -> list[Event]:
            await self._under_server(table)
            table.verify_join(user)
            await self._check_free(guild_id, channel_id, user)
            await self.storage.players.get_or_create(guild_id, user, name=name)
            return list(table.join(user))

        return await self._act((guild_id, channel_id), join)

    async def leave(self, guild_id: int, channel_id: int, user: int) -> tuple[Event, ...]:
        """Leave the lobby."""

        async def leave(table: Table) -> list[Event]:
            await self._under_server(table)
            events = list(table.leave(user))
            if table.phase is Phase.CLOSED:
                events.append(TableClosed(tr("Everyone left the table.")))
            return events

        return await self._act((guild_id, channel_id), leave)

    async def kick(
        self, guild_id: int, channel_id: int, by: int, user: int, *, is_admin: bool = False
    ) -> tuple[Event, ...]:
        """The host (or a server admin) removes a player or a computer; mid-game the table plays
        for them."""

        async def kick(table: Table) -> list[Event]:
            await self._under_server(table)
            events = list(table.kick(by, user, self.clock(), is_admin=is_admin))
            if table.phase is Phase.CLOSED:
                events.append(TableClosed(tr("No one is left at the table.")))
            return events

        return await self._act((guild_id, channel_id), kick)

    async def start(self, guild_id: int, channel_id: int, by: int) -> tuple[Event, ...]:
        """Escrow everyone's ante (all or nobody's), deal, and open the first phase."""

        async def start(table: Table) -> list[Event]:
            await self._under_server(table)
            seated: list[Event] = []
            if table.config.fill is not None and by == table.host:
                # A table set to fill seats a computer in every seat left, up to the cap.
                while len(table.seats) < table.config.seats:
                    try:
                        seated.extend(table.add_computer(by, table.config.fill))
                    except GameError:
                        break
            return [*seated, *await self._deal(table, by)]

        # After a deal nothing is due at once, so the transaction holds no solver or worker.
        return await self._act((guild_id, channel_id), start, one_transaction=True)

    async def _deal(self, table: Table, by: int) -> list[Event]:
        """Create the game in the table's ledger scope, escrow its stakes and deal (inside the
        action's one transaction)."""
        table.verify_start(by)
        # One transaction with the snapshot (one_transaction): a short player or a refused
        # save leaves no game, no escrow and no ledger row behind.
        game = await self.storage.games.create(
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            game=table.spec.name,
            seats=list(table.players),
            scope=table.config.scope,
        )
        stakes = table.start_stakes()
        if stakes:
            await self.storage.chips.escrow(
                game.id,
                stakes,
                table.start_stakes_reason(),
                scoped=table.config.scope is not None,
            )
        seed = self.rng.getrandbits(63)
        return list(table.start(by, game_id=game.id, seed=seed, now=self.clock()))

    # ----- tables a program runs (TableConfig.run_by) ----------------------------------------

    async def open_run(
        self,
        guild_id: int,
        channel_id: int,
        config: TableConfig,
        seats: Sequence[tuple[int, str | None]],
    ) -> tuple[Event, ...]:
        """Open a table a program runs (``config.run_by``) with these players, (user, a
        computer's level or None), and nobody hosting; a table already there is left alone."""
        if config.run_by is None:
            raise GameError(tr("Only a table a program runs opens with its players seated."))
        key = (guild_id, channel_id)
        async with self.activity.working():
            async with self._lock(key) as held:
                if await self.live.get(key, held) is not None:
                    return ()
                table = Table(guild_id, channel_id, NOBODY, config)
                table.reseat(seats)
                batch = Batch()
                batch.add(*table.opened())
                await self._commit(key, table, batch, held)
            await self.outbox.after_commit(key, batch.rows)
            return tuple(batch.events)

    async def deal(
        self,
        guild_id: int,
        channel_id: int,
        *,
        seats: Sequence[tuple[int, str | None]],
        ante: int | None,
        after_games: int,
    ) -> tuple[Event, ...]:
        """Deal a program-run table's next game to these players at this ante (None: the
        table's own), once it has played ``after_games`` games and is between games; otherwise
        (dealt already, a game under way) nothing changes, so the program may ask again after a
        restart without a game dealt twice."""

        async def deal(table: Table) -> list[Event]:
            if table.config.run_by is None:
                raise GameError(tr("Only a table a program runs is dealt this way."))
            if table.phase is not Phase.LOBBY or table.games_played != after_games:
                return []
            table.reseat(seats)
            if ante is not None and table.spec.default_ante:
                options = dataclasses.replace(table.config.options, ante=ante)
                table.config = dataclasses.replace(table.config, options=options)
            return await self._deal(table, table.host)

        return await self._act((guild_id, channel_id), deal, one_transaction=True)

    async def dismiss(
        self, guild_id: int, channel_id: int, reason: str | Text
    ) -> tuple[Event, ...]:
        """Close a program-run table between games (its program is done with it)."""

        async def dismiss(table: Table) -> list[Event]:
            if table.config.run_by is None or table.in_game:
                return []
            table.close()
            return [TableClosed(reason)]

        return await self._act((guild_id, channel_id), dismiss, missing_ok=True)

    async def add_computer(
        self, guild_id: int, channel_id: int, by: int, level: str
    ) -> tuple[Event, ...]:
        """The host seats a computer of this level in the lobby."""
        level = level_named(level).value

        async def add_computer(table: Table) -> list[Event]:
            await self._under_server(table)
            return list(table.add_computer(by, level))

        return await self._act((guild_id, channel_id), add_computer)

    async def declare(
        self, guild_id: int, channel_id: int, user: int, play: bool
    ) -> tuple[Event, ...]:
        """A secret play-or-surrender choice; the reveal comes when all are in."""
        # Playing on, the player must hold the stake (the reveal's escrow takes it). On
        # PostgreSQL, at a table this process holds, the balance is checked by what the click
        # writes anyway (`Cover`): the save's own statement, or the escrow of the declaration
        # that reveals, which refuses the click, not the player's stake, if they are short. A
        # declaration waits for one round trip, not two. Elsewhere (SQLite, where a read
        # outside the save waits for a reader; a table read under the lock) the balance is read
        # while the click waits for the table (the other players' declarations ahead of it),
        # not while it holds it.
        held = self.live.held((guild_id, channel_id))
        checked_as_written = self.storage.database.functions and held is not None
        ahead = None
        # The ledger scope the table's chips live in, as this process last saw the table.
        read_in = guild_id if held is None else held.scope
        if play and not checked_as_written and (held is None or not held.config.practice):
            ahead = _started(self.storage.players.balance(read_in, user))
        covers: list[Cover] = []

        async def declare(table: Table) -> list[Event]:
            table.verify_declare(user)
            needed = table.play_stake()  # a practice table takes nothing, so anyone plays on
            covers.clear()
            if play and needed:
                if checked_as_written:
                    covers.append(Cover(table.scope, user, needed))
                else:
                    if ahead is not None and table.scope == read_in:
                        balance = await ahead
                    else:
                        balance = await self.storage.players.balance(table.scope, user)
                    if needed > balance:
                        raise _short_to_play(needed, balance)
            return list(table.declare(user, play))

        try:
            return await self._act((guild_id, channel_id), declare, deferred=True, covers=covers)
        except ShortOfChipsError as short:
            if not covers or user not in short.needs:
                raise
            balance, needed = short.needs[user]
            raise _short_to_play(needed, balance) from None

    async def submit(
        self, guild_id: int, channel_id: int, user: int, setting: Setting
    ) -> tuple[Event, ...]:
        """Set (or replace) a player's hands; a fouled setting is refused with the reason."""
        return await self._act(
            (guild_id, channel_id),
            lambda table: _ready(list(table.submit(user, setting))),
            deferred=True,
        )

    async def suggest(self, guild_id: int, channel_id: int, user: int) -> Suggestion:
        """The solver's setting of the player's cards (nothing changes until they submit it)."""
        async with self.activity.working():  # a closing waits for it, and refuses it
            table, seat = await self._setting_hands(guild_id, channel_id, user)
            assert table.game_id is not None
            return await self.suggestions.of(
                self.offload, table.spec, seat.held, game_id=table.game_id, user=user
            )

    async def suggest_now(
        self, guild_id: int, channel_id: int, user: int
    ) -> tuple[Suggestion, bool]:
        """The solver's setting if it is made already (True), else a first answer made in a few
        milliseconds (False) while ``suggest`` waits for the best; the best is asked for now."""
        async with self.activity.working():  # a closing waits for it, and refuses it
            table, seat = await self._setting_hands(guild_id, channel_id, user)
            assert table.game_id is not None
            made = self.suggestions.ready(table.game_id, user)
            if made is not None:
                return made, True
            if not self.prepare_suggestions:
                solved = await self.suggestions.of(
                    self.offload, table.spec, seat.held, game_id=table.game_id, user=user
                )
                return solved, True
            # The solver with no time to search: milliseconds, in a worker (a kept one if the
            # others are all solving), never on the loop's own interpreter, which the pictures
            # share.
            quick = await self.offload(first_answer, table.spec, seat.held, priority=Priority.FIRST)
            return quick, False

    async def _setting_hands(
        self, guild_id: int, channel_id: int, user: int
    ) -> tuple[Table, SeatState]:
        """The table where the player has hands to set now, and their seat."""
        table = await self._get((guild_id, channel_id))
        seat = table.seat_of(user)
        if table.phase is not Phase.ARRANGING or not seat.is_active or table.game_id is None:
            raise GameError(tr("There are no hands of yours to set now."))
        return table, seat

    async def hand(self, guild_id: int, channel_id: int, user: int) -> tuple[AnyCard, ...]:
        """The cards the player holds in this channel's game."""
        table = await self._get((guild_id, channel_id))
        seat = table.seat_of(user)
        if not table.in_game:
            raise GameError(NO_GAME)
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
            events.append(TableClosed(tr("The table was cancelled.")))
            return events

        return await self._act((guild_id, channel_id), cancel)

    async def abandon(
        self, guild_id: int, channel_id: int, reason: str | Text
    ) -> tuple[Event, ...]:
        """The channel is gone (deleted, or out of the bot's reach): refund, close, tell by DM.

        The players read ``reason`` (a `Text` in their language); the ledger keeps its English."""

        async def abandon(table: Table) -> list[Event]:
            refunds: dict[int, int] = {}
            if table.in_game and table.game_id is not None:
                game = await self.storage.games.get(table.game_id)
                if game is not None and game.status is GameStatus.OPEN:
                    refunds = await self.storage.chips.refund(table.game_id, str(reason))
            players, game_id = table.players, table.game_id if table.in_game else None
            table.close()
            return [TableAbandoned(table.spec.name, players, refunds, reason, game_id)]

        return await self._act((guild_id, channel_id), abandon, missing_ok=True)

    async def abandon_guild(self, guild_id: int, reason: str | Text) -> int:
        """Every table of a server the bot can no longer reach; how many there were."""
        keys = await self.live.keys(guild_id)
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
            return [TableClosed(tr("The game was refunded."))]
        if game.status is GameStatus.SETTLED:
            table.finish()
            if table.phase is Phase.CLOSED:
                return [TableClosed(tr("No players are left at the table."))]
        return []

    async def _commit(self, key: Key, table: Table, batch: Batch, held: Held | None = None) -> None:
        """Save the table with its events queued; only then replace the live one and its timer.

        A failed save leaves the live table, its version and its timer as they were.
        """
        self._adopt(key, table, await self._save(key, table, batch, held))

    async def _save(
        self,
        key: Key,
        table: Table,
        batch: Batch,
        held: Held | None = None,
        *,
        cover: Cover | None = None,
    ) -> int | None:
        """Save the table (or forget it, once closed) with its events queued; its new version
        (None: closed). The live table is not replaced yet: the save may be part of a larger
        transaction that has still to commit. ``held``: the table's lock, which the store may
        let go with the save's own commit (PostgreSQL: one round trip for both)."""
        # The outbox's lanes that want none of these events are moved past them in the save.
        passing = self.outbox.passing(batch.unqueued)
        if table.phase is Phase.CLOSED:
            deleted = await self.storage.snapshots.delete(
                *key, events=batch.take(), passing=passing, held=held
            )
            batch.queued(deleted.queued)
            return None
        try:
            snapshot = await self.storage.snapshots.save(
                guild_id=key[0],
                channel_id=key[1],
                state=table.to_state(),
                game_id=table.game_id,
                expected_version=self.live.version(key),
                # The seat rule is the people's: a computer belongs to its table alone; at a
                # table a program runs, the program decides who sits where.
                players=(
                    tuple(seat.user for seat in table.people) if table.config.run_by is None else ()
                ),
                events=batch.take(),
                # The deadline's row: any process of the bot fires it if this one cannot.
                deadline=due_at(table, self.clock()),
                passing=passing,
                held=held,
                cover=cover,
                escrow=batch.escrow,
                settle=None if batch.settle is None else batch.settle.call,
            )
        except ShortOfChipsError as short:
            if batch.escrow is None or batch.covered & set(short.shortfalls):
                raise  # the declaration that revealed was short itself: it is refused
            # Another player fell short of their stake: under the lock, the reveal has them
            # surrender (`Flow._reveal`).
            raise StaleSnapshotError(tr("A player's chips changed meanwhile.")) from short
        except StaleSnapshotError as error:
            if held is not None and not held.taken:
                raise  # a deferred lock's claim: the action runs again under the lock
            raise GameError(tr("This table was changed elsewhere; try again.")) from error
        if batch.settle is not None and snapshot.settlement is not None:
            # The showdown the save's settlement queued, before the save's own rows.
            settles = batch.settle
            batch.queued_with(snapshot.settlement.queued, settles.events, settles.payloads)
        batch.queued(snapshot.queued)
        return snapshot.version

    def _adopt(self, key: Key, table: Table, version: int | None) -> None:
        """The saved table becomes the live one, with its timer (a closed one is dropped)."""
        if version is None:
            self.live.drop(key)
            self.deadlines.cancel(key)
            return
        self.live.put(key, table, version)
        self.deadlines.arm(key, table)

    # ----- restarts ------------------------------------------------------------------------

    async def resume(self) -> int:
        """Bring back every saved table with its deadline re-armed; refund games left without one.

        Each table is taken up under its lock, as an action would: with PostgreSQL the other
        processes of the bot may be playing it meanwhile. Returns how many tables came back.
        """
        live: set[int] = set()
        for key in await self.storage.snapshots.keys():
            async with self._lock(key):
                game_id = await self._resume_table(key)
            if game_id is not None:
                live.add(game_id)
        await self._refund_lost_games(live)
        return len(list(self.live))

    async def _resume_table(self, key: Key) -> int | None:
        """Take up one saved table; the game it is playing, if any."""
        snapshot = await self.storage.snapshots.load(*key)
        if snapshot is None:
            return None  # closed meanwhile
        try:
            table = table_from_state(snapshot.state)
        except GameError:
            log.exception("could not read the table of channel %s", key[1])
            await self.storage.snapshots.delete(*key)
            return None
        if table.in_game:
            # A game settled or refunded while the table was down moves the table on.
            if await self._catch_up(table):
                await self.storage.snapshots.delete(*key)
                return None
            if not table.in_game:
                await self._save_resumed(key, table, snapshot.version)
                return None
        if table.deadline is None:
            # A lobby saved before lobbies expired: its idle time starts now.
            table.keep_lobby_open(self.clock())
        self.live.put(key, table, snapshot.version)
        # A deadline already due fires now, even one a process that died had claimed.
        self.deadlines.arm(key, table, starting=True)
        self.turns.after_commit(key, table)  # computers whose turn the restart cut short
        return table.game_id if table.in_game else None

    async def _refund_lost_games(self, live: set[int]) -> None:
        """Refund each open game no table plays: its snapshot was unreadable, or an older version
        of the bot created it and was lost before the table saved it.

        A Start commits its game with its snapshot, so no game is seen half-started; the
        table's lock is still taken first and the game looked at again.
        """
        for game in await self.storage.games.list_open():
            if game.id in live:
                continue
            async with self._lock((game.guild_id, game.channel_id)):
                current = await self.storage.games.get(game.id)
                if current is None or current.status is not GameStatus.OPEN:
                    continue
                if await self.storage.snapshots.keys(game_id=game.id):
                    continue  # its table saved it meanwhile
                await self.storage.chips.refund(game.id, "game lost in a restart")

    async def _save_resumed(self, key: Key, table: Table, version: int) -> None:
        self.live.put(key, table, version)
        await self._commit(key, table, Batch())

    async def close(self, *, wait_s: float = 10.0) -> None:
        """Call off every deadline and let the actions under way finish (up to ``wait_s``), so
        the database is not closed under one; the tables stay saved for the next start."""
        self.activity.closing = True
        self.deadlines.close()
        self.outbox.close()
        self.flow.close()
        await self.turns.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.activity.idle(), wait_s)
            await asyncio.wait_for(self.outbox.flush(), wait_s)


def _short_to_play(needed: int, balance: int) -> GameError:
    """The refusal of a declaration to play on by a player short of the stake."""
    return GameError(
        tr(
            "Playing on costs {needed} chips and you have {balance}; surrender instead.",
            needed=needed,
            balance=balance,
        )
    )


def _started(read: Awaitable[int]) -> asyncio.Future[int]:
    """A read begun now, whose failure is raised where it is awaited, or dropped if unused."""
    begun = asyncio.ensure_future(read)
    begun.add_done_callback(lambda done: done.cancelled() or done.exception())
    return begun


async def _ready(events: list[Event]) -> list[Event]:
    return events
