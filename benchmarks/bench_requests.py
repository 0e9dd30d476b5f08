"""How many Discord requests one game of each kind makes at full seats.

Run: .venv/bin/python -m benchmarks.bench_requests

Every process of a bot shares Discord's global limit of 50 requests a second, so this count is
the ceiling on games per second whatever the hardware. The real bot (discord.py, the cogs, the
tables, SQLite) plays each game in simcord's simulated Discord: /table create, the lobby's Join
and Start buttons, every player pressing Play in their DM (or building nothing: the table sets
the silent ones), Suggest then Take it. Interaction responses and follow-ups (not counted by
Discord) are listed apart; the first game of a process also opens each player's DM channel once.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from collections import Counter
from pathlib import Path

import simcord

from tables.games import GAMES
from tests.cogs.conftest import GUILD_ID, Scene, make_bot, release
from tests.cogs.test_flow import play_out

NUMBER = re.compile(r"/\d+")


def split(requests: list[simcord.types.HttpLogEntry]) -> tuple[Counter[str], int]:
    """The counted requests by route, and how many were interaction responses."""
    counted: Counter[str] = Counter()
    free = 0
    for request in requests:
        if request.path.startswith(("/interactions/", "/webhooks/")):
            free += 1
        else:
            counted[f"{request.method} {NUMBER.sub('/N', request.path)}"] += 1
    return counted, free


async def one_game(game: str) -> tuple[Counter[str], int, Counter[str], int]:
    """(first game's counted routes, its interaction responses, the second game's, its)."""
    folder = Path(tempfile.mkdtemp())
    bot = make_bot(folder / "bench.sqlite3")
    env = simcord.Env(bot)
    await env.start()
    try:
        guild = env.create_guild("Poker Club", id=GUILD_ID)
        channel = guild.create_text_channel("pyramid")
        seats = GAMES[game].max_players
        members = [guild.add_member(env.create_user(f"p{i}")) for i in range(seats)]
        scene = Scene(env, bot, folder / "bench.sqlite3", guild, channel, members)
        since = len(env.http_requests)
        await members[0].slash(channel, "table create", game=game)
        lobby = next(m for m in channel.history() if "Join, then the host" in m.content)
        for member in members[1:]:
            await member.click(lobby, label="Join")
        await members[0].click(lobby, label="Start")
        await play_out(scene, members, "suggest")
        first = split(env.http_requests[since:])
        since = len(env.http_requests)
        showdown = next(m for m in reversed(channel.history()) if m.content.startswith("**Show"))
        await members[0].click(showdown, label="Deal again")
        await play_out(scene, members, "suggest")
        second = split(env.http_requests[since:])
        return (*first, *second)
    finally:
        await release(bot)
        await env.shutdown()


async def main() -> None:
    """Print each game's requests at full seats."""
    print(f"{'game':<14} {'seats':>5} {'counted':>8} {'(first game)':>13} {'free':>5}  routes")
    for game, spec in GAMES.items():
        first, _, second, free = await one_game(game)
        routes = ", ".join(f"{n} {route}" for route, n in second.most_common())
        print(
            f"{game:<14} {spec.max_players:>5} {sum(second.values()):>8} "
            f"{sum(first.values()):>13} {free:>5}  {routes}"
        )


if __name__ == "__main__":
    asyncio.run(main())
