"""A 24-player tournament (6 people, 18 computers) played to its end by ``python bot.py`` on
PostgreSQL, against the fake Discord: an admin creates it and starts it with ``/tournament``,
the people register with the button and play every hand by DM (Suggest, Take it), its four
tables play in four threads the bot opens. In the middle the bot is stopped and started again,
and later killed outright (SIGKILL: no clean anything, its connections simply gone) and another
process takes over. At the end: every round's tables balanced (no two differ by more than one
player) and seating exactly those still in, no hand dealt twice, every player placed exactly
once, the prizes equal to the buy-ins, every tournament chip back and both audits clean.

The game is No-Surrender, whose hands have no declarations: a Showdown round's 36 computer
declarations are each a solver's search, which would make this test minutes of CPU; the
tables-level test (tests/tables/test_tournament_tables.py) plays the Showdown Version."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from storage import Storage
from storage.audit import audit
from storage.rows import GameStatus, TournamentStatus
from storage.stores import open_database
from storage.tournaments import chip_scope
from tables.runtime import RESTARTING
from tables.tournament import prizes
from tables.tournament_play import Play
from tests.process.bot_process import POLL_SECONDS, TOKEN, BotProcess, bot_environment, start_bot
from tests.process.fake_discord import (
    ADMIN_PERMISSIONS,
    CHANNEL_ID,
    GUILD_ID,
    PLAYER_ID,
    FakeDiscord,
)
from tests.process.playing import answer
from tests.tables.tournaments import assert_balanced_rounds

# It runs the bot three times and plays a tournament of some ten rounds through it.
pytestmark = pytest.mark.slow

PEOPLE = 6
ENTRANTS = 24
TABLES = 4
BUY_IN = 100
STARTING_CHIPS = 1_000
#: What a person presses in their DMs: play on at a declaration (the game has none), Suggest,
#: then Take it.
PRESSES = re.compile(r"pp:declare:\d+:\d+:\d+:\d+:play|pp:suggest:.*|pp:take:.*")
#: Showdowns posted in the threads before the bot is stopped, and before it is killed.
RESTART_AFTER = 6
KILL_AFTER = 16
#: Liveness limits, not timing assertions: a press's answer, and the whole tournament.
ANSWER_S = 30.0
PLAYED_WITHIN_S = 600.0


def showdowns_in_threads(fake: FakeDiscord) -> int:
    """The showdowns the bot posted in the tournament's threads."""
    return sum(
        1
        for message in fake.messages.values()
        if int(message["channel_id"]) in fake.threads
        and message["content"].startswith("**Showdown, game ")
    )


def won(fake: FakeDiscord, number: int) -> bool:
    """Whether the channel was told who won the tournament."""
    return any(
        f"wins tournament {number}**" in message["content"]
        for message in fake.messages.values()
        if int(message["channel_id"]) == CHANNEL_ID
    )


async def press(fake: FakeDiscord, message: dict[str, Any], custom_id: str, person: int) -> bool:
    """One press and the bot's answer to it; False if the bot did not take it (it was stopped
    or killed as the press came, or said it is restarting): the person presses again."""
    try:
        sent = await asyncio.wait_for(fake.click(message, custom_id, user=person), ANSWER_S)
        said = await asyncio.wait_for(answer(fake, sent), ANSWER_S)
    except (TimeoutError, ConnectionError, RuntimeError):
        return False
    return not said.startswith(str(RESTARTING))


async def play_people(fake: FakeDiscord, pressed: set[tuple[str, str]]) -> None:
    """The people at work, until cancelled: each new Suggest or Take it (or Play, at a
    declaration) in a person's DMs pressed once, each person at their own pace."""
    pressing: dict[tuple[str, str], asyncio.Task[bool]] = {}
    while True:
        for key, task in list(pressing.items()):
            if task.done():
                del pressing[key]
                if not task.result():
                    pressed.discard(key)
        for message, custom_id in fake.buttons():
            key = (message["id"], custom_id)
            person = fake.dm_of(int(message["channel_id"]))
            if person is None or key in pressed or not PRESSES.fullmatch(custom_id):
                continue
            pressed.add(key)
            pressing[key] = asyncio.ensure_future(press(fake, message, custom_id, person))
        await asyncio.sleep(POLL_SECONDS)


async def until(bot: BotProcess, what: str, done: Any) -> None:
    """Poll ``done()`` until it holds; fail, with the bot's log, if the bot exits first."""

    async def polled() -> None:
        while not done():
            await asyncio.sleep(POLL_SECONDS)

    await bot.until(what, polled(), limit=PLAYED_WITHIN_S)


def rounds_of(games: list[tuple[int, int, str]]) -> dict[int, dict[int, list[int]]]:
    """Each round's tables (by channel) and their players, from the games in id order: a
    table's nth game is its hand of round n (every table opens at the first round)."""
    rounds: dict[int, dict[int, list[int]]] = defaultdict(dict)
    played: dict[int, int] = defaultdict(int)
    for _, channel, seats in sorted(games):
        seated = json.loads(seats)
        players = [seat["user_id"] if isinstance(seat, dict) else seat for seat in seated]
        rounds[played[channel]][channel] = players
        played[channel] += 1
    return rounds


def check_rounds(rounds: dict[int, dict[int, list[int]]], entrants: set[int]) -> None:
    """The tables balanced round by round (`assert_balanced_rounds`), and some broke up."""
    assert_balanced_rounds(rounds, entrants, TABLES)
    # Tables broke as players went out (No-Surrender's last round may knock out several
    # tables' players at once: its levels raise the stack needed to stay in).
    assert len(rounds[len(rounds) - 1]) < TABLES, "no table broke up"


def test_the_rounds_check_fails_on_unbalanced_or_missing_players() -> None:
    people = set(range(1, 25))
    seats = sorted(people)
    balanced = {0: {1: seats[:6], 2: seats[6:12], 3: seats[12:18], 4: seats[18:]}, 1: {1: [1, 2]}}
    check_rounds(balanced, people)
    lopsided = {0: {1: seats[:7], 2: seats[7:12], 3: seats[12:18], 4: seats[18:]}, 1: {1: [1, 2]}}
    with pytest.raises(AssertionError):
        check_rounds(lopsided, people)
    back_in = {**balanced, 2: {1: [1, 3]}}
    with pytest.raises(AssertionError):
        check_rounds(back_in, people)


async def test_a_24_player_tournament_in_four_threads_survives_a_restart_and_a_kill(
    tmp_path: Path, postgres_url: str
) -> None:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    people = [PLAYER_ID] + [
        int(fake.add_person(PLAYER_ID + 100 + n, f"player{n}")["id"]) for n in range(1, PEOPLE)
    ]
    bots: list[BotProcess] = []
    pressed: set[tuple[str, str]] = set()
    playing: asyncio.Task[None] | None = None
    environment = {**bot_environment(fake, postgres_url), "WORKERS": "1"}
    try:
        bot = await start_bot(tmp_path, environment, name="first")
        bots.append(bot)
        await bot.logged("Ready:")
        create = await bot.until(
            "answering /tournament create",
            fake.command(
                "tournament",
                "create",
                permissions=ADMIN_PERMISSIONS,
                game="no-surrender",
                buy_in=BUY_IN,
                max_players=ENTRANTS,
                level_hands=1,
                computers="casual",
            ),
        )
        text = await bot.until("opening the registration", answer(fake, create))
        number = int(re.match(r"\*\*Tournament (\d+):", text).group(1))  # type: ignore[union-attr]
        registration = fake.originals[create.token]
        for person in people:
            sent = await bot.until(
                "registering",
                fake.click(registration, f"pp:tourney:register:{number}", user=person),
            )
            said = await bot.until("answering the registration", answer(fake, sent))
            assert said.startswith(f"You are registered for tournament {number}"), said

        playing = asyncio.get_running_loop().create_task(play_people(fake, pressed))
        start = await bot.until(
            "answering /tournament start",
            fake.command("tournament", "start", permissions=ADMIN_PERMISSIONS),
        )
        started = await bot.until("starting", answer(fake, start))
        assert started == (
            f"Tournament {number} has started: {ENTRANTS} players at {TABLES} tables, each in"
            " a thread of this channel."
        )
        assert len(fake.threads) == TABLES
        assert [t["name"] for t in fake.threads.values()] == [
            f"Tournament {number}, table {n}" for n in range(1, TABLES + 1)
        ]

        # A clean restart in the middle of the tournament.
        await until(
            bot, "playing the first rounds", lambda: showdowns_in_threads(fake) >= RESTART_AFTER
        )
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.exit_status() == 0, bot.text()
        bot = await start_bot(tmp_path, environment, name="second")
        bots.append(bot)
        await bot.logged("Carried on 1 tournament(s).")

        # Later the process dies outright, and another one takes over.
        await until(bot, "playing on", lambda: showdowns_in_threads(fake) >= KILL_AFTER)
        bot.kill()
        await bot.process.wait()
        bot = await start_bot(tmp_path, environment, name="third")
        bots.append(bot)
        await bot.logged("Carried on 1 tournament(s).")
        await until(bot, "playing the tournament to its end", lambda: won(fake, number))
        bot.process.send_signal(signal.SIGTERM)
        status = await bot.exit_status()
    finally:
        if playing is not None:
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing
        for running in bots:
            running.kill()
            await running.process.wait()
        await fake.close()

    assert status == 0, bot.text()
    for running in bots:
        assert "Traceback" not in running.text(), running.text()
    assert fake.unknown_calls() == []
    # The people played: every hand's DMs were theirs to press, and they pressed.
    assert len(pressed) >= PEOPLE

    database = await open_database(postgres_url)
    try:
        storage = Storage.over(database)
        tournament = await storage.tournaments.get(number)
        entries = await storage.tournaments.entries(number)
        games = await database.fetchall(
            "SELECT id, channel_id, seats FROM games WHERE scope = ?", (chip_scope(number),)
        )
        statuses = await database.fetchall(
            "SELECT DISTINCT status FROM games WHERE scope = ?", (chip_scope(number),)
        )
        balances = {p: await storage.players.balance(GUILD_ID, p) for p in people}
        left = await storage.players.balances(chip_scope(number), [e.user_id for e in entries])
        server = await audit(database, GUILD_ID)
        chips = await audit(database, chip_scope(number))
    finally:
        await database.close()

    assert tournament is not None and tournament.status is TournamentStatus.FINISHED
    entrants = {e.user_id for e in entries}
    assert len(entrants) == ENTRANTS and sum(p > 0 for p in entrants) == PEOPLE
    rounds = rounds_of([(g, c, s) for g, c, s in games])
    check_rounds(rounds, entrants)
    # No hand dealt twice: a table's games are the tournament's rounds, each taken in once.
    assert tournament.state is not None
    play = Play.from_json(tournament.state)
    assert len(rounds) == play.model.hands
    assert sorted(play.taken) == sorted(game for game, _, _ in games)
    assert {GameStatus(s) for (s,) in statuses} == {GameStatus.SETTLED}
    # Every player placed exactly once; the prizes are the buy-ins, by the structure.
    assert sorted(e.place for e in entries) == list(range(1, ENTRANTS + 1))
    paid = sorted((e.place, e.prize or 0) for e in entries if e.place is not None)
    assert sum(prize for _, prize in paid) == ENTRANTS * BUY_IN
    assert tuple(prize for _, prize in paid[:5]) == prizes(ENTRANTS * BUY_IN, ENTRANTS)
    by_person = {e.user_id: e.prize or 0 for e in entries if e.user_id > 0}
    assert balances == {p: STARTING_CHIPS - BUY_IN + by_person[p] for p in people}
    assert set(left.values()) == {0}, "every tournament chip went back"
    assert server.is_consistent, server.problems
    assert chips.is_consistent, chips.problems
