"""``/tournament`` and the registration message's Register and Unregister buttons: each refusal
is one sentence to the presser alone, and it moves no chip."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from cogs.lifecycle import can_post
from cogs.tournament import news_text
from storage.audit import audit
from storage.rows import TournamentRow, TournamentStatus
from tests.cogs.helpers import Scene, an_admin, labels
from tests.tables.helpers import QuickComputers


async def _create(scene: Scene, **options: Any) -> tuple[Any, int]:
    """An admin opens a tournament; its registration message and its number."""
    boss = an_admin(scene)
    created = await boss.slash(
        scene.channel, "tournament create", game="showdown", buy_in=100, **options
    )
    assert not created.ephemeral
    message = created.response.message
    tournaments = await scene.bot.services.storage.tournaments.of_guild(scene.guild.id)
    assert tournaments[0].message_id == message.id
    return message, tournaments[0].id


async def _balance(scene: Scene, member: Any) -> int:
    return await scene.bot.services.storage.players.balance(scene.guild.id, member.id)


def _shown(scene: Scene, message: Any) -> Any:
    """The registration message as the channel shows it now."""
    return next(m for m in scene.channel.history() if m.id == message.id)


async def _clean(scene: Scene) -> None:
    report = await audit(scene.bot.services.storage.database, scene.guild.id)
    assert report.is_consistent, report.problems


async def test_the_registration_message_shows_the_terms_and_who_registered(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    message, number = await _create(scene, max_players=6, start="30")
    assert message.content.startswith(f"**Tournament {number}: Showdown Version**, hosted by <@")
    assert "Buy-in **100** chips" in message.content
    assert "Prizes: winner takes all for 2-6 players; 50/30/20% for 7-17 players;" in (
        message.content
    )
    assert "Starts <t:" in message.content
    assert message.content.endswith("Registered (0/6): nobody")
    registered = await ann.click(message, label="Register")
    assert registered.ephemeral
    assert registered.response.content == (
        f"You are registered for tournament {number}: your buy-in of 100 chips is in its prize"
        " pool."
    )
    assert await _balance(scene, ann) == 900
    await bob.click(message, label="Register")
    shown = _shown(scene, message)
    assert shown.content.endswith(f"Registered (2/6): <@{ann.id}>, <@{bob.id}>")
    await _clean(scene)


async def test_registering_twice_is_refused(scene: Scene) -> None:
    ann = scene.members[0]
    message, number = await _create(scene)
    await ann.click(message, label="Register")
    again = await ann.click(message, label="Register")
    assert again.ephemeral
    assert again.response.content == f"You are already registered for tournament {number}."
    assert await _balance(scene, ann) == 900


async def test_a_full_tournament_starts_and_takes_nobody_else(scene: Scene) -> None:
    ann, bob, cy = scene.members[:3]
    message, number = await _create(scene, max_players=2, start="30")
    await ann.click(message, label="Register")
    await bob.click(message, label="Register")
    # Full before its time: it starts now, and its message offers no Register any more (a
    # press on a copy shown before is refused: tests/storage/test_tournaments.py).
    shown = _shown(scene, message)
    assert "Registration is closed: the tournament is running." in shown.content
    assert labels(shown) == []
    assert [t.name for t in scene.channel.threads] == [f"Tournament {number}, table 1"]
    assert await _balance(scene, cy) == 1_000
    await _clean(scene)


async def test_a_player_short_of_the_buy_in_is_refused(scene: Scene) -> None:
    ann = scene.members[0]
    boss = an_admin(scene)
    created = await boss.slash(scene.channel, "tournament create", game="standard", buy_in=5_000)
    refused = await ann.click(created.response.message, label="Register")
    assert refused.ephemeral
    assert refused.response.content == f"Not enough chips: <@{ann.id}> has 1,000 and needs 5,000."
    assert await _balance(scene, ann) == 1_000
    await _clean(scene)


async def test_after_the_start_nobody_registers_or_unregisters(scene: Scene) -> None:
    ann, bob, cy = scene.members[:3]
    message, number = await _create(scene)
    await ann.click(message, label="Register")
    await bob.click(message, label="Register")
    await scene.bot.services.storage.tournaments.start(number, {}, stack=1_000)
    late = await cy.click(message, label="Register")
    assert late.ephemeral
    assert late.response.content == (
        f"Registration for tournament {number} is closed: it has started."
    )
    leaving = await ann.click(message, label="Unregister")
    assert leaving.response.content == (
        f"Tournament {number} has started: nobody can unregister now."
    )
    assert await _balance(scene, ann) == 900
    assert await _balance(scene, cy) == 1_000


async def test_unregistering_returns_the_buy_in_and_a_stranger_is_told(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    message, number = await _create(scene)
    await ann.click(message, label="Register")
    left = await ann.click(message, label="Unregister")
    assert left.response.content == (
        f"You are no longer registered for tournament {number}: 100 chips are back in your balance."
    )
    assert await _balance(scene, ann) == 1_000
    stranger = await bob.click(message, label="Unregister")
    assert stranger.ephemeral
    assert stranger.response.content == f"You are not registered for tournament {number}."
    await _clean(scene)


async def test_cancelling_refunds_every_buy_in_and_closes_registration(scene: Scene) -> None:
    ann, bob, cy = scene.members[:3]
    message, number = await _create(scene)
    await ann.click(message, label="Register")
    await bob.click(message, label="Register")
    refused = await cy.slash(scene.channel, "tournament cancel")
    assert refused.ephemeral
    assert refused.response.content == (
        "Only a member who may manage this server creates, starts or cancels tournaments."
    )
    boss = an_admin(scene)
    cancelled = await boss.slash(scene.channel, "tournament cancel", tournament=number)
    assert cancelled.response.content == (
        f"Tournament {number} is cancelled: 200 chips of buy-ins went back to 2 players."
    )
    assert await _balance(scene, ann) == 1_000 and await _balance(scene, bob) == 1_000
    shown = _shown(scene, message)
    assert "**Cancelled**: every buy-in was returned." in shown.content
    assert labels(shown) == [], "the buttons go with the registration"
    await _clean(scene)


async def test_only_an_admin_creates_and_a_bad_start_is_explained(scene: Scene) -> None:
    ann = scene.members[0]
    refused = await ann.slash(scene.channel, "tournament create", game="showdown", buy_in=10)
    assert refused.ephemeral
    assert refused.response.content == (
        "Only a member who may manage this server creates, starts or cancels tournaments."
    )
    boss = an_admin(scene)
    bad = await boss.slash(
        scene.channel, "tournament create", game="showdown", buy_in=10, start="soon"
    )
    assert bad.ephemeral
    assert bad.response.content == (
        'Start is a number of minutes from now (1 to 10,080) or "full", not "soon".'
    )
    assert await scene.bot.services.storage.tournaments.of_guild(scene.guild.id) == []


async def test_status_and_standings_of_a_tournament_registering(scene: Scene) -> None:
    ann = scene.members[0]
    message, number = await _create(scene)
    await ann.click(message, label="Register")
    status = await ann.slash(scene.channel, "tournament status")
    assert status.ephemeral
    assert status.response.content.endswith(f"Registered (1/6): <@{ann.id}>")
    standings = await ann.slash(scene.channel, "tournament standings", tournament=number)
    assert standings.response.content == (
        f"Tournament {number} has not started: 1 registered (<@{ann.id}>)."
    )
    board = await ann.slash(scene.channel, "tournament leaderboard")
    assert board.response.content == "No tournament on this server has finished yet."


async def test_a_channel_where_the_bot_cannot_open_threads_is_refused_before_any_buy_in(
    scene: Scene,
) -> None:
    # Each of a tournament's tables plays in a thread the bot opens: without Create Public
    # Threads and Send Messages in Threads it would take buy-ins it could never play.
    for missing in ("create_public_threads", "send_messages_in_threads"):
        closed = scene.guild.create_text_channel(
            f"no-{missing}".replace("_", "-"),
            overwrites={scene.guild.me: discord.PermissionOverwrite(**{missing: False})},
        )
        boss = an_admin(scene)
        refused = await boss.slash(closed, "tournament create", game="showdown", buy_in=10)
        assert refused.ephemeral
        assert refused.response.content == (
            "A tournament plays each table in a thread of its channel: the bot needs Create"
            " Public Threads and Send Messages in Threads here. Grant them, or create the"
            " tournament in another channel."
        )
    assert await scene.bot.services.storage.tournaments.of_guild(scene.guild.id) == []


def test_a_thread_where_the_bot_may_not_post_counts_as_lost(scene: Scene) -> None:
    channel = scene.guild.create_text_channel(
        "threads-closed",
        overwrites={scene.guild.me: discord.PermissionOverwrite(send_messages_in_threads=False)},
    )
    parent = scene.bot.get_channel(channel.id)
    assert isinstance(parent, discord.TextChannel)
    assert can_post(parent), "the channel itself is open to the bot"
    thread = discord.Thread(
        guild=parent.guild,
        state=parent._state,
        data={
            "id": "1",
            "parent_id": str(parent.id),
            "owner_id": str(scene.bot.user.id),
            "name": "table 1",
            "type": 11,
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-11-26T00:00:00+00:00",
                "locked": False,
            },
        },
    )
    assert not can_post(thread)


async def test_an_admin_starts_a_tournament_early_and_computers_fill_it(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    # The computers decide at once: the tables' own play is not what this test is about.
    scene.tables.turns.offload = QuickComputers(scene.tables.turns.offload)
    message, number = await _create(scene, max_players=8, computers="steady")
    await ann.click(message, label="Register")
    refused = await bob.slash(scene.channel, "tournament start")
    assert refused.ephemeral
    assert refused.response.content == (
        "Only a member who may manage this server creates, starts or cancels tournaments."
    )
    boss = an_admin(scene)
    started = await boss.slash(scene.channel, "tournament start", tournament=number)
    assert not started.ephemeral
    assert started.response.content == (
        f"Tournament {number} has started: 8 players at 2 tables, each in a thread of this channel."
    )
    assert len(scene.channel.threads) == 2
    assert labels(_shown(scene, message)) == [], "registration closed"
    again = await boss.slash(scene.channel, "tournament start", tournament=number)
    assert again.response.content == (
        f"Tournament {number} is running: only one still registering starts."
    )
    await _clean(scene)


async def test_starting_with_one_player_cancels_and_refunds(scene: Scene) -> None:
    ann = scene.members[0]
    message, number = await _create(scene)
    await ann.click(message, label="Register")
    assert await _balance(scene, ann) == 900
    boss = an_admin(scene)
    started = await boss.slash(scene.channel, "tournament start")
    assert started.response.content == (
        f"Tournament {number} had fewer than 2 players: it is cancelled and every buy-in went back."
    )
    assert await _balance(scene, ann) == 1_000
    assert scene.channel.threads == []
    await _clean(scene)


def test_the_news_of_a_table_that_lost_its_thread_names_its_new_one() -> None:
    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    row = TournamentRow(
        id=5,
        guild_id=1,
        channel_id=2,
        message_id=None,
        pool_game_id=3,
        host_id=4,
        game="showdown",
        buy_in=100,
        max_players=12,
        starts=None,
        level_hands=5,
        computers=None,
        status=TournamentStatus.RUNNING,
        state=None,
        version=1,
        created=now,
        finished=None,
    )
    moved = [{"kind": "moved", "table": 2, "channel": 9876}]
    assert news_text(row, moved) == (
        "Table 2 of tournament 5 lost its thread; it plays on in <#9876>."
    )
