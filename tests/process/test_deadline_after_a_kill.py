"""``python bot.py`` killed between claiming a deadline and doing its work, on each store: the
restarted bot takes the deadline over at once instead of leaving the table mid-game."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from storage import Storage
from storage.audit import audit
from storage.database import Database
from storage.rows import GameStatus
from storage.stores import open_database
from tables.phase import Phase
from tables.snapshot import table_from_state
from tests.process.bot_process import (
    POLL_SECONDS,
    TOKEN,
    BotProcess,
    bot_environment,
    start_bot,
)
from tests.process.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.process.playing import answer, dm_button, dm_click, showdowns

# It starts the bot twice (with its workers) and waits out a 15-second deadline.
pytestmark = pytest.mark.slow

#: The shortest deadlines a table takes.
DEADLINE_S = 15
#: How long the restarted bot may take to post the showdown: generous for a start-up and a
#: solver's 1.5 s, and well short of the 60 s for which the dead process's claim holds the
#: deadline (the watch of a PostgreSQL process takes a claim only once it runs out).
MOVES_ON_S = 30.0


async def claim_of(database: Database) -> str | None:
    """Which process holds the table's deadline, if one does (a claim still running)."""
    row = await database.fetchone(
        "SELECT claimed_by FROM deadlines WHERE guild_id = ? AND channel_id = ?"
        " AND claimed_until > ?",
        (GUILD_ID, CHANNEL_ID, time.time()),
    )
    return None if row is None else str(row[0])


async def claimed_deadline(target: str | Path) -> None:
    """Return once a process has claimed the table's deadline (and not yet saved the table)."""
    database = await open_database(target, migrate_schema=False)
    try:
        while await claim_of(database) is None:
            await asyncio.sleep(POLL_SECONDS)
    finally:
        await database.close()


async def test_a_bot_killed_between_claiming_a_deadline_and_firing_it_moves_the_table_on_at_restart(
    tmp_path: Path, database_target: str | Path
) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    bots: list[BotProcess] = []
    try:
        environment = {**bot_environment(fake, database_target), "WORKERS": "1"}
        bot = await start_bot(tmp_path, environment, name="first")
        bots.append(bot)
        await bot.logged("Ready:")
        # The Casino Version against the dealer alone, with the shortest deadlines.
        create = await bot.until(
            "answering /table create",
            fake.command(
                "table",
                "create",
                game="casino",
                declare_seconds=DEADLINE_S,
                arrange_seconds=DEADLINE_S,
            ),
        )
        assert await bot.until("opening", answer(fake, create)) == (
            "You opened a Casino Version table here."
        )
        start = await bot.until("answering /table start", fake.command("table", "start"))
        await bot.until("dealing", answer(fake, start))
        await dm_click(fake, bot, r"pp:declare:\d+:\d+:\d+:0:play")
        await bot.until(
            "opening the arrangement",
            fake.wait_for(lambda f: dm_button(f, r"pp:suggest:.*") is not None),
        )

        # The player sets nothing: at the deadline the bot claims it and, while the solver sets
        # the player's hands, dies. With its workers frozen the solver never answers, so the
        # kill lands between the claim and the work however fast the solver would have been.
        assert bot.stop_workers(), "the bot has no worker processes to freeze"
        await bot.until("claiming the deadline", claimed_deadline(database_target))
        bot.kill()
        await bot.process.wait()
        database = await open_database(database_target, migrate_schema=False)
        try:
            storage = Storage.over(database)
            [game] = await storage.games.list_open()
            held = await claim_of(database)
        finally:
            await database.close()
        assert held is not None, "the kill came after the deadline's work was saved"
        assert not showdowns(fake)

        again = await start_bot(tmp_path, environment, name="second")
        bots.append(again)
        await again.until(
            "moving the table on",
            fake.wait_for(lambda f: bool(showdowns(f))),
            limit=MOVES_ON_S,
        )
        again.process.send_signal(signal.SIGTERM)
        status = await again.exit_status()
    finally:
        for running in bots:
            running.kill()
            await running.process.wait()
        await fake.close()

    [showdown] = showdowns(fake)
    assert showdown["content"].startswith(f"**Showdown, game {game.id}.**")
    assert status == 0, again.text()
    assert "Traceback" not in again.text(), again.text()
    database = await open_database(database_target)
    try:
        storage = Storage.over(database)
        settled = await storage.games.get(game.id)
        snapshot = await storage.snapshots.load(GUILD_ID, CHANNEL_ID)
        report = await audit(database)
    finally:
        await database.close()
    assert settled is not None and settled.status is GameStatus.SETTLED
    assert report.is_consistent, report.problems
    assert snapshot is not None and table_from_state(snapshot.state).phase is Phase.LOBBY
