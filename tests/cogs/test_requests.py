"""Every request counts against Discord's limit for the whole bot (50 a second, every process
together); interaction responses do not. A full six-player Showdown stays within 26."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from tests.cogs.helpers import Scene, play_out, the_table

#: The issue's ceiling for a six-player Showdown, outside interaction responses.
SHOWDOWN_CEILING = 26
NUMBER = re.compile(r"/\d+")


def counted(scene: Scene, since: int = 0) -> Counter[str]:
    """The bot's requests since ``since`` that count against its limit, by route."""
    routes: Counter[str] = Counter()
    for request in scene.env.http_requests[since:]:
        if request.path.startswith(("/interactions/", "/webhooks/")):
            continue  # an interaction's response or follow-up: not counted by Discord
        path = NUMBER.sub("/N", request.path)
        routes[f"{request.method} {path}"] += 1
    return routes


def cheers(scene: Scene, since: int) -> int:
    """The achievements' announcements among the channel's messages since ``since`` (one message
    for each batch earned, after the showdown that earned them)."""
    return sum(m.content.startswith("🏆") for m in scene.channel.history()[since:])


async def play_a_full_table(scene: Scene, game: str, seats: int) -> list[Any]:
    """Open a table by command, fill it with the lobby's Join button, Start, play by DM."""
    players = scene.members[:seats]
    created = await players[0].slash(scene.channel, "table create", game=game)
    assert created.acknowledged
    lobby = next(m for m in scene.channel.history() if "Join, then the host" in m.content)
    for member in players[1:]:
        assert (await member.click(lobby, label="Join")).acknowledged
    assert (await players[0].click(lobby, label="Start")).acknowledged
    await play_out(scene, players, "suggest")
    assert (await the_table(scene)).games_played == 1
    return players


@pytest.mark.slow  # six players asking the solver for 25-card settings
async def test_a_six_player_showdown_makes_at_most_26_requests(scene: Scene) -> None:
    since, posted = len(scene.env.http_requests), len(scene.channel.history())
    await play_a_full_table(scene, "showdown", 6)
    routes = counted(scene, since)
    total = sum(routes.values())
    assert total <= SHOWDOWN_CEILING, routes
    # Where they go: a DM per player and phase, each DM channel opened once, one showdown, and
    # one message for the achievements it earned (a first game earns one for everyone).
    announced = cheers(scene, posted)
    assert announced == 1
    assert routes["POST /channels/N/messages"] == 6 * 3 + 1 + announced, routes
    assert routes["POST /users/@me/channels"] <= 6, routes
    assert "GET /users/N" not in routes  # never a look-up before a DM


async def test_a_second_game_opens_no_dm_channel_again(scene: Scene) -> None:
    players = await play_a_full_table(scene, "casino", 3)
    since, posted = len(scene.env.http_requests), len(scene.channel.history())
    showdown = next(m for m in reversed(scene.channel.history()) if m.content.startswith("**Show"))
    assert (await players[0].click(showdown, label="Deal again")).acknowledged
    await play_out(scene, players, "suggest")
    routes = counted(scene, since)
    assert "POST /users/@me/channels" not in routes, routes
    # Two DMs each (deal, buy-in), a showdown, and the achievements it earned if any (a first win).
    announced = cheers(scene, posted)
    assert announced <= 1 and sum(routes.values()) == 3 * 2 + 1 + announced, routes
