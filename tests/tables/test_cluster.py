"""Three processes of the bot share one PostgreSQL and play 24 tables; one is killed mid-game.

Each process (tests/tables/cluster_node.py) is a full table manager with its own timers and the
cluster's deadline watch. Actions go to random processes, a player's private ones (declaring,
setting hands: what a DM's buttons do, which Discord sends to shard 0) mostly to the first. Six
tables are played through the third process alone until it is killed with SIGKILL; nobody acts
there again, so only the survivors' watch can fire their deadlines. Every game must end settled,
once, with every chip where the ledger says.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from storage import Storage
from storage.audit import audit
from storage.rows import GameStatus
from storage.stores import open_database

REPO = Path(__file__).resolve().parents[2]
GAMES = ("showdown", "casino", "standard", "no-surrender", "three-card", "paigow")
TABLES = 24
ORPHANED = 6
#: A liveness limit, not a timing assertion: far beyond what the deadlines add up to.
FINISH_LIMIT_S = 180.0


class NodeGoneError(Exception):
    """The process was killed before it answered."""


@dataclass
class Node:
    """One process of the cluster and its pending requests."""

    process: asyncio.subprocess.Process
    name: str = ""
    pending: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    reading: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, url: str) -> Node:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.tables.cluster_node",
            url,
            cwd=REPO,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        node = cls(process)
        assert process.stdout is not None
        ready = json.loads(await asyncio.wait_for(process.stdout.readline(), 60))
        node.name = ready["ready"]
        node.reading = asyncio.get_running_loop().create_task(node._read())
        return node

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            answer = json.loads(line)
            future = self.pending.pop(answer["id"], None)
            if future is not None and not future.done():
                future.set_result(answer)
        for future in self.pending.values():
            if not future.done():
                future.set_exception(NodeGoneError(self.name))
                future.exception()  # whoever waits sees it; nobody else need

    async def call(self, op: str, *args: Any) -> dict[str, Any]:
        if self.process.returncode is not None:
            raise NodeGoneError(self.name)
        number = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[number] = future
        assert self.process.stdin is not None
        request = json.dumps({"id": number, "op": op, "args": args}).encode() + b"\n"
        try:
            self.process.stdin.write(request)
            await self.process.stdin.drain()
        except (ConnectionResetError, BrokenPipeError):
            raise NodeGoneError(self.name) from None
        return await asyncio.wait_for(future, 60)

    async def stop(self) -> None:
        if self.process.returncode is None and self.process.stdin is not None:
            self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self.reading is not None:
            await self.reading


@dataclass
class Plan:
    """One table of the test: where it is, its game and players."""

    guild: int
    channel: int
    game: str
    players: tuple[int, ...]
    orphaned: bool


def plans() -> list[Plan]:
    found = []
    for number in range(TABLES):
        players = tuple(1_000 * (number + 1) + seat for seat in range(3))
        found.append(
            Plan(
                guild=7_000 + number % 4,
                channel=8_000 + number,
                game=GAMES[number % len(GAMES)],
                players=players,
                orphaned=number < ORPHANED,
            )
        )
    return found


class Cluster:
    """The processes, which one gets each request, and the moment the third one dies."""

    def __init__(self, nodes: list[Node], rng: random.Random) -> None:
        self.nodes = nodes
        self.rng = rng
        self.doomed = nodes[2]
        self.killed = asyncio.Event()

    def survivors(self) -> list[Node]:
        return [node for node in self.nodes if node is not self.doomed or not self.killed.is_set()]

    async def call(self, plan: Plan, op: str, *args: Any, private: bool = False) -> Any:
        """Send a request where the test's routing says; a refusal or a dead process is None."""
        if plan.orphaned:
            if self.killed.is_set():
                return None  # nobody acts at these tables after the kill
            node = self.doomed
        elif private and self.rng.random() < 0.7:
            node = self.nodes[0]  # a DM's button: shard 0's process
        else:
            node = self.rng.choice(self.survivors())
        try:
            answer = await node.call(op, *args)
        except NodeGoneError:
            return None
        return answer.get("ok")


async def open_table(cluster: Cluster, plan: Plan) -> None:
    host, *others = plan.players
    assert await cluster.call(plan, "create", plan.guild, plan.channel, host, plan.game)
    for user in others:
        assert await cluster.call(plan, "join", plan.guild, plan.channel, user)
    assert await cluster.call(plan, "start", plan.guild, plan.channel, host)


async def play(cluster: Cluster, plan: Plan, rng: random.Random, acted: asyncio.Event) -> None:
    """Act for the players now and then (some stay silent), until the game is over."""
    while True:
        look = await cluster.call(plan, "look", plan.guild, plan.channel)
        if look is None:
            if plan.orphaned and cluster.killed.is_set():
                return  # the survivors' watch plays the rest
            await asyncio.sleep(0.2)
            continue
        if look["phase"] in ("lobby", "closed"):
            return
        if look["waiting"]:
            user = rng.choice(look["waiting"])
            if rng.random() < 0.8:
                if look["phase"] == "declaring":
                    play_on = rng.random() < 0.8
                    await cluster.call(
                        plan, "declare", plan.guild, plan.channel, user, play_on, private=True
                    )
                else:
                    await cluster.call(plan, "set", plan.guild, plan.channel, user, private=True)
                if plan.orphaned:
                    acted.set()  # one action there, then the process dies mid-game
                    await cluster.killed.wait()
        await asyncio.sleep(rng.uniform(0.05, 0.3))


@pytest.mark.slow
async def test_three_processes_play_24_tables_and_lose_nothing_when_one_is_killed(
    postgres_url: str,
) -> None:
    rng = random.Random(15)
    nodes = list(await asyncio.gather(*(Node.start(postgres_url) for _ in range(3))))
    cluster = Cluster(nodes, rng)
    database = await open_database(postgres_url)
    storage = Storage.over(database)
    try:
        tables = plans()
        await asyncio.gather(*(open_table(cluster, plan) for plan in tables))
        alive = await storage.processes.alive(within_s=60)
        assert {p.id for p in alive} >= {node.name for node in nodes}

        acted = {plan.channel: asyncio.Event() for plan in tables if plan.orphaned}
        playing = [
            asyncio.ensure_future(
                play(
                    cluster,
                    plan,
                    random.Random(plan.channel),
                    acted.get(plan.channel, asyncio.Event()),
                )
            )
            for plan in tables
        ]
        # Once every orphaned table has had an action there mid-game, kill its process.
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in acted.values())), 60)
        open_then = [game.id for game in await storage.games.list_open()]
        cluster.doomed.process.kill()
        await cluster.doomed.process.wait()
        cluster.killed.set()
        await asyncio.wait_for(asyncio.gather(*playing), FINISH_LIMIT_S)

        # The orphaned tables are finished by the survivors' deadline watch alone.
        async with asyncio.timeout(FINISH_LIMIT_S):
            while await storage.games.list_open():
                await asyncio.sleep(0.5)

        games = await database.fetchall("SELECT id, channel_id, status FROM games ORDER BY id")
        assert len(games) == TABLES, "each table played one game"
        assert [(g, s) for g, _, s in games if s != GameStatus.SETTLED.value] == [], (
            "a game was refunded (or left open) though its table was being played"
        )
        orphaned = {plan.channel for plan in tables if plan.orphaned}
        assert {channel for game, channel, _ in games if game in open_then} >= orphaned
        # Settled once: one result row per player and game, at most one house row per game.
        rows = await database.fetchall(
            "SELECT game_id, account, user_id, COUNT(*) FROM ledger WHERE kind = 'result'"
            " GROUP BY game_id, account, user_id"
        )
        assert rows and all(count == 1 for *_, count in rows)
        report = await audit(database)
        assert report.is_consistent, report.problems
        assert report.escrowed == 0
    finally:
        for node in nodes:
            with contextlib.suppress(ProcessLookupError):
                if node is cluster.doomed:
                    node.process.kill()
            await node.stop()
        await database.close()
