"""What a player meets around a game: Deal again, /help, /rules, the DM's cards as text."""

from __future__ import annotations

from typing import Any

from tests.cogs.conftest import Scene
from tests.cogs.test_edges import start_game
from tests.cogs.test_flow import play_out, the_table


def showdown_message(scene: Scene) -> Any:
    return next(m for m in reversed(scene.channel.history()) if m.content.startswith("**Showdown"))


async def test_deal_again_plays_the_next_hand_with_whoever_is_seated(scene: Scene) -> None:
    players = await start_game(scene, "casino", 3)
    await play_out(scene, players, "timer")
    ann, bob, cy = players
    first = showdown_message(scene)
    labels = [c.label for row in first.components for c in row.children]
    assert labels[:3] == ["Deal again", "Join", "Leave"]
    # Seated players are asked, not forced: Cy leaves, Bob may not deal, Ann (the host) deals.
    left = await cy.click(first, label="Leave")
    assert "You left the table" in left.response.content
    refused = await bob.click(first, label="Deal again")
    assert "host" in refused.response.content
    dealt = await ann.click(first, label="Deal again")
    assert dealt.acknowledged and "Dealt" in dealt.response.content
    table = the_table(scene)
    assert table.in_game and table.players == (ann.id, bob.id)
    await play_out(scene, [ann, bob], "timer")
    assert the_table(scene).games_played == 2
    assert showdown_message(scene).id != first.id
