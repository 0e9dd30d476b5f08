"""``/review`` on a busy server: the player's own latest game, reviews made once, and a limit
on how often one player may ask (each review costs the workers up to half a second)."""

from __future__ import annotations

import re

from engine.settlement import Transfer
from render.style import MINUS
from tables.coach import REVIEW_WINDOW_S, REVIEWS_PER_WINDOW
from tests.cogs.helpers import Scene, play_person, showdowns


async def play_alone(scene: Scene) -> int:
    """The first member plays one three-card game against the dealer; its number."""
    ann = scene.members[0]
    await ann.slash(scene.channel, "table create", game="three-card")
    await ann.slash(scene.channel, "table start")
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    return int(showdown.content.split("game ")[1].split(".")[0])


async def test_review_with_no_number_finds_your_game_after_fifty_newer_games_of_others(
    scene: Scene,
) -> None:
    ann, bob, cy = scene.members[:3]
    mine = await play_alone(scene)
    storage = scene.bot.services.storage
    elsewhere = scene.guild.create_text_channel("busy")
    for _ in range(60):  # the server keeps playing without ann
        game = await storage.games.create(
            guild_id=scene.guild.id, channel_id=elsewhere.id, game="showdown"
        )
        await storage.chips.escrow(game.id, {bob.id: 10, cy.id: 10}, "ante")
        await storage.chips.settle(game.id, [Transfer(bob.id, cy.id, 5, "points")])
    history = await ann.slash(scene.channel, "history")
    assert f"Game {mine} (" in history.response.content
    # Every figure names its unit.
    lines = history.response.content.splitlines()
    [line] = [line for line in lines if line.startswith(f"Game {mine} (")]
    assert re.search(rf"settled, [+{MINUS}]?\d+ chips: main bet ", line), lines
    assert " chips (best " in lines[0], lines
    reviewed = await ann.slash(scene.channel, "review")
    # It said "You have no finished game here to review yet." while /history listed the game.
    assert reviewed.response.content.startswith(f"**Your review of game {mine} ("), (
        reviewed.response.content
    )


async def test_a_player_asking_too_many_reviews_is_told_when_to_try_again(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    mine = await play_alone(scene)
    first = await ann.slash(scene.channel, "review", game=mine)
    for _ in range(REVIEWS_PER_WINDOW - 1):
        again = await ann.slash(scene.channel, "review", game=mine)
        assert again.response.content == first.response.content  # the same review each time
    refused = await ann.slash(scene.channel, "review", game=mine)
    text = refused.response.content
    assert refused.ephemeral and not refused.response.attachments
    found = re.fullmatch(
        rf"You asked for {REVIEWS_PER_WINDOW} reviews in the last {REVIEW_WINDOW_S:.0f} seconds; "
        r"try again in (\d+) seconds?\.",
        text,
    )
    assert found is not None, text
    wait = int(found.group(1))
    assert 0 < wait <= REVIEW_WINDOW_S
    # Another player is not held back by ann's reviews.
    other = await bob.slash(scene.channel, "review", game=mine)
    assert f"did not play in game {mine}" in other.response.content
    await scene.env.advance_time(wait)
    later = await ann.slash(scene.channel, "review", game=mine)
    assert later.response.content == first.response.content
