"""Achievements through the real bot: announced once in the table's channel after the showdown
that earned them (kept quiet where the server says so), and ``/profile`` drawing the card."""

from __future__ import annotations

import io

from PIL import Image

from cogs.profile import NO_PROFILE
from tables.achievements import BY_KEY
from tests.cogs.helpers import Scene, an_admin, play_out, showdowns, start_game
from tests.render.helpers import Drawn

FIRST = BY_KEY["first-game"]


def earned_lines(scene: Scene) -> list[str]:
    """Every announcement line posted in the channel, oldest first."""
    return [
        line
        for message in scene.channel.history()
        for line in message.content.splitlines()
        if " earned **" in line
    ]


async def test_a_first_game_is_announced_once_after_its_showdown(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await play_out(scene, players, "timer")
    await scene.env.settle()
    ann, bob = players
    first = f"earned **{FIRST.name}**: {FIRST.description}"
    lines = earned_lines(scene)
    assert f"\N{TROPHY} <@{ann.id}> {first}" in lines
    assert f"\N{TROPHY} <@{bob.id}> {first}" in lines
    assert len([line for line in lines if first in line]) == 2
    # One message for the game's achievements, after its showdown.
    history = scene.channel.history()
    [said] = [m for m in history if first in m.content]
    [showdown] = showdowns(scene)
    assert history.index(said) > history.index(showdown)
    # A restart (the outbox read again) says nothing twice.
    await scene.restart()
    await scene.env.settle()
    assert earned_lines(scene) == lines


async def test_a_server_that_silences_achievements_hears_none_and_still_earns_them(
    scene: Scene,
) -> None:
    admin = an_admin(scene)
    changed = await admin.slash(scene.channel, "settings achievements", announce=False)
    assert (
        "- Achievements earned are **not announced** (still earned, and shown by `/profile`)."
        in (changed.response.content.splitlines())
    )
    players = await start_game(scene, "casino", 2)
    await play_out(scene, players, "timer")
    await scene.env.settle()
    assert showdowns(scene) and earned_lines(scene) == []
    earned = await scene.bot.services.storage.achievements.earned(scene.guild.id, players[0].id)
    assert "first-game" in [row.achievement for row in earned]


async def test_profile_draws_the_card_with_games_and_achievements(
    scene: Scene, drawn: list[Drawn]
) -> None:
    players = await start_game(scene, "casino", 2)
    await play_out(scene, players, "timer")
    await scene.env.settle()
    ann, bob = players
    shown = await bob.slash(scene.channel, "profile", player=ann.user)
    assert not shown.ephemeral
    assert shown.response.content == f"<@{ann.id}>'s profile: " + (
        f"{len(await scene.bot.services.storage.achievements.earned(scene.guild.id, ann.id))}"
        " of 18 achievements earned."
    )
    [attached] = shown.response.attachments
    data = await attached.read()
    assert data.startswith(b"\x89PNG") and len(data) < 500_000
    with Image.open(io.BytesIO(data)) as image:
        assert image.width == 700 and 300 < image.height < 2000
    texts = [piece.text for piece in drawn]
    assert "ann" in texts and "Games" in texts and "Wins" in texts
    assert str(FIRST.name) in texts and str(FIRST.description) in texts
    # Two people played a rated game: the card gives ann's rating in it, with her season's place.
    [rating] = await scene.bot.services.storage.ratings.player(scene.guild.id, ann.id)
    assert "Ratings" in texts and "Casino Version" in texts
    assert f"{rating.shown:,} · #{rating.rank} this season" in texts
    # No challenge played: that section is left out.
    assert "Daily challenge" not in texts


async def test_profile_of_a_bot_is_refused_with_a_sentence(scene: Scene) -> None:
    robot = scene.env.create_user("robot", bot=True)
    refused = await scene.members[0].slash(scene.channel, "profile", player=robot)
    assert refused.ephemeral and refused.response.content == str(NO_PROFILE)
