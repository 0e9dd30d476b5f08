"""Computer players, practice tables, the coach and replays, through the simulated Discord."""

from __future__ import annotations

import pytest

from engine import declaring
from render.style import signed
from storage.audit import audit
from tables.record import record_from_json
from tests.cogs.helpers import (
    SETTLE_S,
    Scene,
    an_admin,
    custom_ids,
    labels,
    lobby_message,
    play_person,
    showdowns,
    the_table,
)


@pytest.mark.slow  # five computers' 25-card holdings; the quick lane plays the others
async def test_a_person_and_five_computers_play_showdown_to_the_end(scene: Scene) -> None:
    # Starting deals five computers' holdings to the solver: on a busy machine (CI's four
    # workers on two cores) that outlasts the simulated Discord's 5 s for an answer, and once
    # 10 s. The first deadline is 60 s away: a 30 s wait lets no timer fire that should not.
    scene.env.settle_timeout = 3 * SETTLE_S
    ann = scene.members[0]
    channel, guild = scene.channel, scene.guild.id
    assert (await ann.slash(channel, "table create", game="showdown")).acknowledged
    for level in ("casual", "strong", "casual", "strong"):
        added = await ann.slash(channel, "table addbot", level=level)
        assert added.response.content == "A computer sits at the table."
    await scene.env.settle()
    lobby = lobby_message(scene)
    assert "Add computer" in labels(lobby)
    pressed = await ann.click(lobby, label="Add computer")  # the fifth: the button's level
    assert pressed.acknowledged
    table = await the_table(scene)
    assert [s.computer for s in table.seats] == [
        None,
        "casual",
        "strong",
        "casual",
        "strong",
        "steady",
    ]
    # A full table offers no more computers; the lobby names each one with its level.
    lobby = lobby_message(scene)
    assert "Add computer" not in labels(lobby)
    assert "Computer 5 (steady)" in lobby.content
    # Only the host seats one.
    bob = scene.members[1]
    refused = await bob.slash(channel, "table addbot")
    assert refused.ephemeral
    assert refused.response.content == "Only the table's host can seat a computer."
    assert (await ann.slash(channel, "table start")).acknowledged
    # Nobody DMs a computer: only the person got cards.
    assert ann.user.dm_channel.last_message.attachments
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    assert showdown.attachments and "Computer 1" in showdown.content
    game_id = int(showdown.content.split("game ")[1].split(".")[0])
    assert f"pp:review:{game_id}" in custom_ids(showdown)
    # The house's chips played for the computers: the books balance with the house in them.
    database = scene.bot.database
    assert database is not None
    report = await audit(database, guild)
    assert report.is_consistent, report.problems
    storage = scene.bot.services.storage
    net = await storage.players.balance(guild, ann.id) - 1_000
    assert report.house == -net
    # No computer on any leaderboard.
    board = await ann.slash(channel, "leaderboard")
    assert "Computer" not in board.response.content
    assert [s.user_id for s in await storage.leaderboards.by_balance(guild)] == [ann.id]
    assert [s.user_id for s in await storage.leaderboards.by_wins(guild)] in ([ann.id], [])


async def test_a_computer_surrenders_cards_worth_less_than_the_surrender(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Cards expected to lose 1,000 chips played on: every computer surrenders them.
    monkeypatch.setattr(declaring, "solve", lambda *args, **kwargs: None)
    monkeypatch.setattr(declaring, "_worth", lambda *args, **kwargs: -1_000.0)
    ann = scene.members[0]
    channel, guild = scene.channel, scene.guild.id
    await ann.slash(channel, "table create", game="showdown")
    for _ in range(2):
        await ann.slash(channel, "table addbot", level="strong")
    await ann.slash(channel, "table start")
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    assert f"Computer 1 {signed(-15)} chips, Computer 2 {signed(-15)} chips" in showdown.content
    game = await scene.bot.services.storage.games.get(1)
    assert game is not None and game.result is not None
    record = record_from_json(game.result, game.id)
    computers = list(record.computers)
    assert sorted(record.surrendered) == sorted(computers)
    storage = scene.bot.services.storage
    database = scene.bot.database
    assert database is not None
    report = await audit(database, guild)
    assert report.is_consistent, report.problems
    won = await storage.players.balance(guild, ann.id) - 1_000
    assert won > 0 and report.house == -won  # the computers' surrenders paid from the house


async def test_a_practice_table_moves_no_chip_and_writes_no_leaderboard(scene: Scene) -> None:
    ann = scene.members[0]
    channel, guild = scene.channel, scene.guild.id
    created = await ann.slash(channel, "table create", game="casino", practice=True, seats=3)
    assert created.acknowledged
    await scene.env.settle()
    assert lobby_message(scene).content.split("\n")[0] == (
        f"**Casino Version** table, ante 5, 1/3 seats (host <@{ann.id}>). **Practice**: no chips "
        "move."
    )
    database = scene.bot.database
    assert database is not None
    before = await database.fetchall("SELECT * FROM ledger")
    # A lone player starts at once: the empty seats take computers.
    assert (await ann.slash(channel, "table start")).acknowledged
    table = await the_table(scene)
    assert [s.computer for s in table.seats] == [None, "steady", "steady"]
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    assert showdown.content.startswith(
        f"**Showdown, game {table.game_id}.** Practice: no chips moved. "
    )
    assert await database.fetchall("SELECT * FROM ledger") == before
    boards = scene.bot.services.storage.leaderboards
    assert await boards.by_wins(guild) == [] and await boards.history(guild, ann.id) == []


async def test_review_and_slash_review_answer_the_player_alone(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    channel = scene.channel
    await ann.slash(channel, "table create", game="paigow")
    await ann.slash(channel, "table addbot", level="casual")
    await ann.slash(channel, "table start")
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    game_id = int(showdown.content.split("game ")[1].split(".")[0])
    pressed = await ann.click(showdown, label="Review")
    assert pressed.acknowledged and pressed.ephemeral
    text = pressed.response.content
    assert text.startswith(f"**Your review of game {game_id} (Pai Gow")
    assert "Yours: expected" in text and "against the hands played" in text
    assert "Best" in text or "the best way" in text
    assert pressed.response.attachments  # the two settings side by side
    # A player who was not at the table is told so, privately.
    stranger = await bob.click(showdown, label="Review")
    assert stranger.ephemeral
    assert stranger.response.content == f"You did not play in game {game_id}."
    typed = await ann.slash(channel, "review", game=game_id)
    assert typed.ephemeral and typed.response.content == text
    latest = await ann.slash(channel, "review")
    assert latest.response.content == text


async def test_a_showdown_review_names_each_hand_that_differs(scene: Scene) -> None:
    ann = scene.members[0]
    channel = scene.channel
    await ann.slash(channel, "table create", game="casino")
    await ann.slash(channel, "table addbot", level="casual")
    await ann.slash(channel, "table start")
    await play_person(scene, ann)  # Suggest: the solver's own setting
    reviewed = await ann.slash(channel, "review")
    assert reviewed.ephemeral and reviewed.response.attachments
    assert reviewed.response.content.split("\n")[2] == "You set them the best way. Well played."


async def test_replay_redraws_a_finished_games_showdown_for_anyone(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    channel = scene.channel
    await ann.slash(channel, "table create", game="three-card")
    await ann.slash(channel, "table start")
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    game_id = int(showdown.content.split("game ")[1].split(".")[0])
    replay = await bob.slash(channel, "replay", game=game_id)
    assert replay.acknowledged and not replay.ephemeral
    assert replay.response.content.startswith(f"**Replay, game {game_id}.**")
    assert replay.response.attachments
    missing = await bob.slash(channel, "replay", game=game_id + 50)
    assert missing.ephemeral
    assert missing.response.content == f"There is no game {game_id + 50} on this server."


async def test_a_server_may_forbid_computers_or_cap_them(scene: Scene) -> None:
    ann = an_admin(scene)
    channel = scene.channel
    forbid = await ann.slash(channel, "settings tables", computers=False)
    assert forbid.response.content.split("\n")[-1] == (
        "- Computer players: **not allowed**; they pay a player at most **100** chips a day "
        "(`/settings house`)."
    )
    await ann.slash(channel, "table create", game="showdown")
    await scene.env.settle()
    assert "Add computer" not in labels(lobby_message(scene))
    refused = await ann.slash(channel, "table addbot")
    assert refused.ephemeral
    assert refused.response.content == "This server does not seat computers at its tables."
    refused = await ann.slash(channel, "table create", game="casino", fill="strong")
    assert refused.ephemeral
    await ann.slash(channel, "table cancel")
    capped = await ann.slash(channel, "settings tables", computers=True, computer_seats=1)
    assert capped.response.content.split("\n")[-1] == (
        "- Computer players: up to **1** a table; they pay a player at most **100** chips a day "
        "(`/settings house`)."
    )
    await ann.slash(channel, "table create", game="showdown")
    assert (await ann.slash(channel, "table addbot")).acknowledged
    refused = await ann.slash(channel, "table addbot")
    assert refused.ephemeral and refused.response.content == "This table seats at most 1 computer."
