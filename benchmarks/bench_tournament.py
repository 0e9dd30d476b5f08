"""A 36-player tournament of computers alone, played to its winner through the real bot.

Run: .venv/bin/python -m benchmarks.bench_tournament [--players 36] [--level-hands 2] [--real]

The bot as it runs (discord.py, the cogs, the tables, the tournament's runner and subscriber,
SQLite) in simcord's simulated Discord, on virtual time: an admin opens the tournament with
`computers:` filling every place, it starts a minute later at six tables, each in a thread the
bot opens, and plays until one player holds every chip. Printed: the wall time, the hands
(games) dealt and the rounds, and the Discord requests counted against the global limit (each
table's messages and edits, the threads, the news in the channel), in all and per hand.
Interaction responses are not counted (Discord does not). By default the computers decide at
once (play on, the first legal setting: the tournament's own machinery is measured, not the
solver); ``--real`` lets the steady computers think as they do in play.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import tempfile
import time
from collections import Counter
from pathlib import Path

import simcord

from storage.rows import TournamentStatus
from tables.tournament_play import Play
from tests.cogs.helpers import GUILD_ID, Scene, an_admin, make_bot, release
from tests.tables.helpers import QuickComputers

NUMBER = re.compile(r"/\d+")


async def run(players: int, level_hands: int, *, real: bool) -> None:
    """Play one tournament and print its figures."""
    folder = Path(tempfile.mkdtemp())
    bot = make_bot(folder / "bench.sqlite3")
    # A step of six tables may take longer than simcord's 5 s to settle on a loaded machine.
    env = simcord.Env(bot, settle_timeout=300)
    await env.start()
    try:
        guild = env.create_guild("Poker Club", id=GUILD_ID)
        channel = guild.create_text_channel("pyramid")
        scene = Scene(env, bot, folder / "bench.sqlite3", guild, channel, [])
        if not real:
            tables = scene.tables
            tables.turns.offload = QuickComputers(tables.turns.offload)
        boss = an_admin(scene)
        began, cpu = time.perf_counter(), time.process_time()
        since = len(env.http_requests)
        await boss.slash(
            channel,
            "tournament create",
            game="showdown",
            buy_in=100,
            max_players=players,
            start="1",
            level_hands=level_hands,
            computers="steady",
        )
        repository = bot.services.storage.tournaments
        [tournament] = await repository.of_guild(guild.id)
        while True:
            await env.advance_time(30)
            row = await repository.get(tournament.id)
            assert row is not None
            if row.status is TournamentStatus.FINISHED:
                break
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        counted: Counter[str] = Counter()
        for request in env.http_requests[since:]:
            if not request.path.startswith(("/interactions/", "/webhooks/")):
                counted[f"{request.method} {NUMBER.sub('/N', request.path)}"] += 1
        assert row.state is not None
        play = Play.from_json(row.state)
        hands = len(play.taken)
        total = sum(counted.values())
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"players {players}, level_hands {level_hands}, computers {'real' if real else 'quick'}"
        )
        print(
            f"tables at the start {len(channel.threads)}, rounds {play.model.hands}, hands {hands}"
        )
        print(f"wall {wall:.1f} s, {wall / hands * 1000:.0f} ms a hand; CPU {cpu:.1f} s")
        print(f"requests {total}, {total / hands:.1f} a hand")
        for route, n in counted.most_common():
            print(f"  {n:>6} {route}")
        print(f"load average {load}")
    finally:
        await release(bot)
        await env.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=36)
    parser.add_argument("--level-hands", type=int, default=2)
    parser.add_argument("--real", action="store_true", help="steady computers think as in play")
    arguments = parser.parse_args()
    asyncio.run(run(arguments.players, arguments.level_hands, real=arguments.real))


if __name__ == "__main__":
    main()
