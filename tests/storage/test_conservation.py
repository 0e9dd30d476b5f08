"""Property: grants, takes, bonuses, escrows, settlements and refunds in any order keep chips."""

from __future__ import annotations

import asyncio
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import GameError
from engine.settlement import HOUSE, POT, Transfer, balances
from storage import Storage
from storage.audit import audit
from storage.stores import open_database
from tests.postgres import create_database, drop_database
from tests.storage.helpers import ADMIN, FakeClock

#: Every table the examples write, emptied between examples on PostgreSQL.
TABLES = ("ledger", "escrow", "outbox", "games", "players", "guild_settings")

GUILDS = (1, 2)
USERS = (11, 12, 13, 14)
START = 1_000
BONUS = 100

users = st.sampled_from(USERS)
guilds = st.sampled_from(GUILDS)
chips = st.integers(1, 400)


def escrows() -> st.SearchStrategy[tuple[Any, ...]]:
    """Stakes for some players under one of a game's stake names."""
    return st.tuples(
        st.just("escrow"),
        st.integers(0, 5),
        st.dictionaries(users, chips, min_size=1),
        st.sampled_from(("ante", "stake 1", "buy-in")),
    )


def settlements() -> st.SearchStrategy[tuple[Any, ...]]:
    """Transfers between players and the house, and antes into a pot that one player takes."""
    return st.tuples(
        st.just("settle"),
        st.integers(0, 5),
        st.lists(
            st.tuples(st.sampled_from((*USERS, HOUSE)), st.sampled_from((*USERS, HOUSE)), chips),
            max_size=5,
        ),
        st.dictionaries(users, st.integers(1, 50), max_size=3),
        users,
    )


# Escrows and settlements are listed twice (as distinct strategies, which one_of would
# otherwise merge): they are what the property is about.
operations = st.one_of(
    st.tuples(st.just("grant"), guilds, users, chips),
    st.tuples(st.just("take"), guilds, users, st.integers(1, 1_500)),
    st.tuples(st.just("daily"), guilds, users),
    st.tuples(st.just("clock"), st.integers(1, 30)),
    st.tuples(st.just("open"), guilds),
    escrows(),
    escrows(),
    settlements(),
    settlements(),
    st.tuples(st.just("refund"), st.integers(0, 5)),
)


@dataclass
class Model:
    """What the chips should be, computed without SQL."""

    balance: dict[tuple[int, int], int] = field(default_factory=dict)
    minted: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    house: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    games: list[tuple[int, int]] = field(default_factory=list)  # (id, guild)
    escrow: dict[int, dict[int, int]] = field(default_factory=dict)
    status: dict[int, str] = field(default_factory=dict)
    daily: set[tuple[int, int, object]] = field(default_factory=set)
    paid: set[tuple[int, int, str]] = field(default_factory=set)  # (game, user, reason)

    def seen(self, guild: int, user: int) -> int:
        return self.balance.get((guild, user), START)

    def credit(self, guild: int, user: int, amount: int) -> None:
        if (guild, user) not in self.balance:
            self.minted[guild] += START
        self.balance[guild, user] = self.seen(guild, user) + amount


def transfers_of(step: tuple[Any, ...]) -> list[Transfer]:
    _, _, moves, antes, winner = step
    found = [Transfer(a, b, n, "points") for a, b, n in moves if a != b]
    found += [Transfer(user, POT, n, "ante") for user, n in antes.items()]
    if antes:
        found.append(Transfer(POT, winner, sum(antes.values()), "pot"))
    return found


async def apply(store: Storage, model: Model, clock: FakeClock, step: tuple[Any, ...]) -> None:
    kind = step[0]
    if kind == "clock":
        clock.advance(hours=step[1])
        return
    if kind == "open":
        game = await store.games.create(guild_id=step[1], channel_id=5, game="showdown")
        model.games.append((game.id, step[1]))
        model.escrow[game.id], model.status[game.id] = {}, "open"
        return
    if kind in ("grant", "take", "daily"):
        guild, user = step[1], step[2]
        amount = {"grant": step[-1], "take": -step[-1], "daily": BONUS}[kind]
        day = (guild, user, clock.now.date())
        ok = model.seen(guild, user) + amount >= 0 and not (kind == "daily" and day in model.daily)
        try:
            if kind == "grant":
                await store.players.grant(guild, user, amount, admin_id=ADMIN)
            elif kind == "take":
                await store.players.take(guild, user, -amount, admin_id=ADMIN)
            else:
                await store.players.claim_daily(guild, user)
        except GameError:
            assert not ok
            return
        assert ok
        if kind == "daily":
            model.daily.add(day)
        model.credit(guild, user, amount)
        model.minted[guild] += amount
        return
    if not model.games:
        await apply(store, model, clock, ("open", GUILDS[step[1] % 2]))
    # Mostly an open game, sometimes any game: repeats and late actions on finished ones.
    open_games = [g for g in model.games if model.status[g[0]] == "open"]
    choices = open_games if open_games and step[1] % 3 else model.games
    game, guild = choices[step[1] % len(choices)]
    held = model.escrow[game]
    if kind == "escrow":
        # A stake already taken under the same reason is skipped, not taken twice.
        stakes = {u: n for u, n in step[2].items() if (game, u, step[3]) not in model.paid}
        ok = model.status[game] == "open" and all(
            model.seen(guild, u) >= n for u, n in stakes.items()
        )
        try:
            taken = await store.chips.escrow(game, step[2], step[3])
        except GameError:
            assert not ok
            return
        assert ok and taken == stakes
        for user, amount in stakes.items():
            model.paid.add((game, user, step[3]))
            model.credit(guild, user, -amount)
            held[user] = held.get(user, 0) + amount
    elif kind == "settle":
        transfers = transfers_of(step)
        nets = {p: n for p, n in balances(transfers).items() if p not in (POT, HOUSE)}
        players = {int(p) for p in nets} | held.keys()
        back = {u: held.get(u, 0) + nets.get(u, 0) for u in players}
        ok = model.status[game] == "settled" or (
            model.status[game] == "open"
            and all(model.seen(guild, u) + back[u] >= 0 for u in players)
        )
        try:
            await store.chips.settle(game, transfers)
        except GameError:
            assert not ok
            return
        assert ok
        if model.status[game] == "open":
            for user in players:
                model.credit(guild, user, back[user])
            model.house[guild] += balances(transfers).get(HOUSE, 0)
            model.escrow[game], model.status[game] = {}, "settled"
    else:
        ok = model.status[game] != "settled"
        try:
            returned = await store.chips.refund(game)
        except GameError:
            assert not ok
            return
        assert ok and returned == held
        for user, amount in held.items():
            model.credit(guild, user, amount)
        model.escrow[game], model.status[game] = {}, "refunded"


async def run(steps: list[tuple[Any, ...]], target: str | Path) -> None:
    clock = FakeClock()
    store = Storage.over(await open_database(target, clock=clock))
    model = Model()
    try:
        for step in steps:
            await apply(store, model, clock, step)
        for guild in GUILDS:
            report = await audit(store.database, guild)
            assert report.problems == ()
            assert report.minted == model.minted[guild]
            assert report.house == model.house[guild]
            assert report.escrowed == sum(
                sum(model.escrow[g].values()) for g, gg in model.games if gg == guild
            )
        rows = await store.database.fetchall("SELECT guild_id, user_id, balance FROM players")
        assert {(g, u): b for g, u, b in rows} == model.balance
    finally:
        await store.database.close()


@pytest.mark.slow
@settings(
    derandomize=True,
    database=None,
    max_examples=80,
    deadline=None,
    # The fixtures say only which store to use; each example opens a store of its own.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(operations, min_size=4, max_size=40))
def test_chips_are_conserved_and_every_balance_equals_its_ledger(
    steps: list[tuple[Any, ...]], store_name: str, request: pytest.FixtureRequest
) -> None:
    if store_name == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(run(steps, Path(folder) / "chips.sqlite3"))
        return
    url = request.getfixturevalue("conservation_database")

    async def on_postgres() -> None:
        try:
            await run(steps, url)
        finally:
            # The next example starts from an empty store, as a new SQLite file does.
            connection = await asyncpg.connect(url)
            try:
                await connection.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE")
            finally:
                await connection.close()

    asyncio.run(on_postgres())


@pytest.fixture
def conservation_database(postgres_server: str, postgres_template: str) -> Iterator[str]:
    """One database for all of a run's examples (emptied after each)."""
    url = asyncio.run(create_database(postgres_server, postgres_template))
    yield url
    asyncio.run(drop_database(postgres_server, url))
