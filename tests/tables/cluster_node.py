"""One process of a bot cluster for tests/tables/test_cluster.py: a full table manager on a shared
PostgreSQL, with its own deadline timers and the cluster's deadline watch, driven by JSON lines.

``python -m tests.tables.cluster_node URL`` reads one request per line on stdin, ``{"id": 1,
"op": "join", "args": [...]}``, runs each at once (side by side, as a bot's interactions run),
and answers each with one line on stdout: ``{"id": 1, "ok": ...}`` or ``{"id": 1, "error":
"..."}`` (a refusal a player would read). It says ``{"ready": process_id}`` once it runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.errors import GameError
from storage import Storage
from storage.stores import open_database
from tables.cluster import ClusterMember
from tables.config import make_config
from tables.events import Event
from tables.hands import warm_up
from tables.manager import TableManager
from tests.tables.helpers import quick_arranger

#: Deadlines short enough for a test: declarations 2 s, hands 3 s.
DECLARATION_S = 2
ARRANGEMENT_S = 3


class CountingPublisher:
    """Counts what the node would show (Discord is not part of this test)."""

    def __init__(self) -> None:
        self.shown = 0

    async def publish(self, guild_id: int, channel_id: int, events: Sequence[Event]) -> None:
        self.shown += len(events)


async def handle(manager: TableManager, op: str, args: list[Any]) -> Any:
    """One request: an action at a table, or a look at one."""
    if op == "create":
        guild, channel, host, game = args
        config = make_config(game)
        # Deadlines shorter than a host may choose: the table's options, set past their checks.
        config = dataclasses.replace(
            config,
            options=dataclasses.replace(
                config.options,
                declaration_seconds=DECLARATION_S,
                arrangement_seconds=ARRANGEMENT_S,
            ),
        )
        await manager.create(guild, channel, host, config)
    elif op == "join":
        await manager.join(*args)
    elif op == "start":
        await manager.start(*args)
    elif op == "declare":
        await manager.declare(*args)
    elif op == "set":
        # Hands as a player would type them: a legal setting of their cards, quickly found.
        guild, channel, user = args
        table = await manager.table(guild, channel)
        if table is None:
            raise GameError("There is no table in this channel.")
        setting = quick_arranger(table.spec, table.seat_of(user).held)
        await manager.submit(guild, channel, user, setting)
    elif op == "look":
        table = await manager.table(*args)
        if table is None:
            return None
        return {
            "phase": table.phase.value,
            "game": table.game_id,
            "waiting": list(table.waiting_for()),
            "round": table.round,
        }
    else:
        raise ValueError(f"unknown op {op!r}")
    return True


async def serve(url: str) -> None:
    await asyncio.to_thread(warm_up)
    database = await open_database(url)
    manager = TableManager(Storage.over(database), CountingPublisher(), arranger=quick_arranger)
    cluster = ClusterMember(manager, poll_s=0.2, overdue_s=1.0)
    await manager.resume()
    await cluster.start(watch=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    running: set[asyncio.Task[None]] = set()

    def say(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    async def answer(request: dict[str, Any]) -> None:
        try:
            result = await handle(manager, request["op"], request["args"])
            say({"id": request["id"], "ok": result})
        except GameError as error:
            say({"id": request["id"], "error": str(error)})

    say({"ready": cluster.process_id})
    while line := await reader.readline():
        task = loop.create_task(answer(json.loads(line)))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running, return_exceptions=True)
    await cluster.stop()
    await manager.close()
    await database.close()


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1]))
