"""The tournaments' runner, a user of the `TableManager`: it starts tournaments (at their time,
or when full), opens each table in a place the `Venue` gives it (a thread; a new one for a table
whose thread went away), deals each round's hands with `TableManager.deal` (which deals a
table's nth game in its channel once), closes the tables no longer needed and hands the news to
the `Venue`. Everything it does is read again from the database, so after a restart `resume`
carries on where the last process stopped; what the tables' showdowns and abandonments do to a
tournament is `tables.tournament_play.TournamentPlay`'s."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine.text import tr
from storage import Storage
from storage.rows import TournamentRow, TournamentStatus
from storage.tournaments import RegistrationError, chip_scope
from tables.config import TableConfig, make_config
from tables.manager import TableManager
from tables.runtime import Scheduler, Timer
from tables.server import Server
from tables.subscribers import SubscriberLane
from tables.tournament import SEATS, STACK, Tournament, base_ante
from tables.tournament_play import News, Play, TournamentPlay

log = logging.getLogger(__name__)

#: Seconds before a step that failed (the store or Discord away) is tried again.
RETRY_SECONDS = 5.0


class Venue(Protocol):
    """Where a tournament's tables sit and its news goes (the Discord edge: threads of the
    tournament's channel, and messages in it)."""

    async def open_place(self, tournament: TournamentRow, number: int) -> int:
        """A new channel for the tournament's table ``number``; its id."""

    async def announce(self, tournament: TournamentRow, news: Sequence[News]) -> None:
        """Tell the tournament's channel the news."""

    async def registration_changed(self, tournament: TournamentRow) -> None:
        """Show the registration message as the tournament now is."""


class TournamentRunner:
    """Starts tournaments, opens and deals their tables, and closes them at the end."""

    def __init__(
        self,
        storage: Storage,
        tables: TableManager,
        venue: Venue,
        *,
        rng: random.Random | None = None,
        scheduler: Scheduler | None = None,
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.venue = venue
        self.rng = rng or random.SystemRandom()
        self.scheduler = scheduler or tables.scheduler
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: dict[int, Timer] = {}
        #: Tournaments with a step waiting for their lock: a step reads the state afresh once
        #: it holds the lock, so one waiting step covers every showdown before it.
        self._waiting: set[int] = set()
        self.closing = False
        for lane in tables.outbox.lanes:
            if isinstance(lane, SubscriberLane) and isinstance(lane.subscriber, TournamentPlay):
                lane.subscriber.listener = self.kick

    # ----- starting ---------------------------------------------------------------------------

    def arm(self, tournament: TournamentRow) -> None:
        """Start the tournament at its start time (one with none starts when it is full)."""
        if tournament.starts is None or tournament.status is not TournamentStatus.REGISTERING:
            return
        delay = max(0.0, tournament.starts.timestamp() - self.tables.clock())
        old = self._timers.pop(tournament.id, None)
        if old is not None:
            old.cancel()

        async def due() -> None:
            self._timers.pop(tournament.id, None)
            await self._guarded(self.start(tournament.id), tournament.id)

        self._timers[tournament.id] = self.scheduler.schedule(delay, due)

    async def registered(self, tournament_id: int) -> None:
        """A person registered: a full tournament starts now."""
        tournament = await self.storage.tournaments.get(tournament_id)
        if tournament is None or tournament.status is not TournamentStatus.REGISTERING:
            return
        entries = await self.storage.tournaments.entries(tournament_id)
        if len(entries) >= tournament.max_players:
            await self.start(tournament_id)

    async def start(self, tournament_id: int) -> None:
        """Close registration (computers filling the free places, if the tournament says so),
        draw the seats, issue the stacks, then open and deal the tables. Fewer than two
        entrants: the tournament is cancelled and the buy-ins returned."""
        repository = self.storage.tournaments
        async with self._lock(tournament_id):
            tournament = await repository.get(tournament_id)
            if tournament is None or tournament.status is not TournamentStatus.REGISTERING:
                return
            if tournament.computers is not None:
                entries = await repository.entries(tournament_id)
                await repository.add_computers(tournament_id, tournament.max_players - len(entries))
            entries = await repository.entries(tournament_id)
            if len(entries) < 2:
                await repository.cancel(tournament_id)
                people = [e.user_id for e in entries if e.user_id > 0]
                cancelled = await repository.get(tournament_id)
                assert cancelled is not None
                await self.venue.registration_changed(cancelled)
                await self.venue.announce(cancelled, [{"kind": "cancelled", "players": people}])
                return
            model = Tournament(
                entrants=[entry.user_id for entry in entries],
                seed=self.rng.getrandbits(63),
                base_ante=base_ante(self.tables_spec(tournament)),
                level_hands=tournament.level_hands,
            )
            play = Play(model, news=[{"kind": "started", "tables": len(model.tables)}])
            try:
                started = await repository.start(tournament_id, play.to_json(), stack=STACK)
            except RegistrationError:
                return  # started meanwhile by another process
            await self.venue.registration_changed(started)
        await self.step(tournament_id)

    @staticmethod
    def tables_spec(tournament: TournamentRow) -> Any:
        """The game the tournament plays, as a table spec."""
        return make_config(tournament.game).spec

    # ----- playing ----------------------------------------------------------------------------

    def kick(self, tournament_id: int) -> None:
        """Carry the tournament on soon (a showdown moved it), off the caller's task."""
        if self.closing or tournament_id in self._waiting:
            return
        self._waiting.add(tournament_id)

        async def kicked() -> None:
            try:
                await self._guarded(self.step(tournament_id), tournament_id)
            finally:
                self._waiting.discard(tournament_id)  # the step failed before its lock

        task = asyncio.get_running_loop().create_task(kicked())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guarded(self, work: Any, tournament_id: int) -> None:
        try:
            await work
        except Exception:
            if self.closing:
                # The bot is shutting down: what the step did not do, the next start does.
                log.info(
                    "tournament %s stopped mid-step by the shutdown; the next start carries on",
                    tournament_id,
                )
                return
            log.exception("tournament %s could not carry on; trying again shortly", tournament_id)
            if not self.closing:

                async def again() -> None:
                    await self._guarded(self.step(tournament_id), tournament_id)

                self.scheduler.schedule(RETRY_SECONDS, again)

    async def wait(self) -> None:
        """Until every step started has finished (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def step(self, tournament_id: int) -> None:
        """Do what the tournament's saved state says is due: open its tables' places and
        tables (a table whose place went away moves to a new one), post its news, close the
        tables no longer needed and deal the next hand where it is not dealt yet; at the end,
        close every table. Doing it twice does no harm."""
        repository = self.storage.tournaments
        async with self._lock(tournament_id):
            self._waiting.discard(tournament_id)
            tournament = await repository.get(tournament_id)
            if tournament is None or tournament.state is None:
                return
            if tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
                return
            play = Play.from_json(tournament.state)
            model = play.model
            running = tournament.status is TournamentStatus.RUNNING
            version, opened = tournament.version, False
            if running:
                # A table without a channel: at the start, or once its channel went away.
                for number in sorted(model.tables):
                    if number not in play.channels:
                        play.place(number, await self.venue.open_place(tournament, number))
                        opened = True
                if play.lost:
                    play.lost = []  # broken up before they moved: nothing to tell of them
                    opened = True
            if opened:
                version = await repository.save(tournament_id, play.to_json(), version)
            if play.news:
                # Told before it is cleared: a stop in between tells it again rather than never.
                await self.venue.announce(tournament, play.news)
                play.news = []
                version = await repository.save(tournament_id, play.to_json(), version)
            guild = tournament.guild_id
            for number, channel in sorted(play.channels.items()):
                if not running or number not in model.tables:
                    why = (
                        tr("Tournament {number} is over.", number=str(tournament_id))
                        if not running
                        else tr(
                            "Table {table} of tournament {number} broke up.",
                            table=str(number),
                            number=str(tournament_id),
                        )
                    )
                    await self.tables.dismiss(guild, channel, why)
            if not running:
                await repository.close(tournament_id)
                return
            await self._deal(tournament, play, version)

    async def _deal(self, tournament: TournamentRow, play: Play, version: int) -> None:
        """Open each table in its channel (once: a table whose channel went away is not opened
        there again) and deal the round's hand where it is not dealt yet."""
        model, guild = play.model, tournament.guild_id
        config = await self._config(tournament)
        untabled = [number for number in sorted(model.tables) if number not in play.tabled]
        for number in untabled:
            seats = [self._seat(tournament, player) for player in model.tables[number]]
            await self.tables.open_run(guild, play.channels[number], config, seats)
            play.tabled.append(number)
        if untabled:
            await self.storage.tournaments.save(tournament.id, play.to_json(), version)
        for number, seated in sorted(model.tables.items()):
            channel = play.channels[number]
            if number in model.settled or await self.tables.table(guild, channel) is None:
                # Played the round's hand; or abandoned just now, and `TournamentPlay` moves it.
                continue
            await self.tables.deal(
                guild,
                channel,
                seats=[self._seat(tournament, player) for player in seated],
                ante=model.ante,
                after_games=play.games_before(number),
            )

    async def _config(self, tournament: TournamentRow) -> TableConfig:
        """A tournament table's settings: the server's deadlines, the tournament's chips."""
        server: Server = await self.tables.server(tournament.guild_id)
        config = make_config(tournament.game, defaults=server.defaults)
        return dataclasses.replace(
            config,
            computer_seats=SEATS,  # a table of computers alone plays on too
            fill=None,
            scope=chip_scope(tournament.id),
            house_computers=False,
            run_by=f"tournament {tournament.id}",
        )

    @staticmethod
    def _seat(tournament: TournamentRow, player: int) -> tuple[int, str | None]:
        return (player, tournament.computers or "steady") if player < 0 else (player, None)

    def _lock(self, tournament_id: int) -> contextlib.AbstractAsyncContextManager[Any]:
        # One step of a tournament at a time in this process; on PostgreSQL in every process.
        return self.storage.database.lock("tournament", (tournament_id, 0))

    # ----- restarts ---------------------------------------------------------------------------

    async def resume(self) -> int:
        """Carry on every tournament after a start: the running ones where they were, the
        registering ones at their start time (now, if it passed). How many there were."""
        unfinished = await self.storage.tournaments.unfinished()
        for tournament in unfinished:
            if tournament.status is not TournamentStatus.REGISTERING:
                # Running, or finished with its closing cut short (news, tables) by a stop.
                await self._guarded(self.step(tournament.id), tournament.id)
            elif tournament.starts is not None:
                self.arm(tournament)
        return len(unfinished)

    async def stop(self) -> None:
        """Stop (`close`), then let the steps under way finish, before the tables close."""
        self.close()
        await self.wait()

    def close(self) -> None:
        """Stop: no timer fires and no step starts from now on."""
        self.closing = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
