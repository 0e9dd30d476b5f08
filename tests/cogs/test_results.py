"""A game's result reads the same wherever it is shown: the showdown's line, ``/history`` and
Review give the chips with their unit and the one-line breakdown that reconciles them with the
points (or each wager, in the games against the house)."""

from __future__ import annotations

import re

import pytest

from render.style import MINUS
from tests.cogs.helpers import Scene, play_person, showdowns


async def _played(scene: Scene, game: str) -> tuple[int, str]:
    """The first member plays one game of ``game`` against the dealer: its number and the
    showdown's post."""
    ann = scene.members[0]
    await ann.slash(scene.channel, "table create", game=game)
    await ann.slash(scene.channel, "table start")
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    return int(showdown.content.split("game ")[1].split(".")[0]), showdown.content


@pytest.mark.parametrize("game", ["casino", "three-card"])
async def test_the_showdown_history_and_review_give_the_same_breakdown(
    scene: Scene, game: str
) -> None:
    ann = scene.members[0]
    number, posted = await _played(scene, game)
    if game == "casino":
        # The showdown's own line for the player: "<@ann> -35 chips: points -25 (-5 points), ...".
        found = [x for x in posted.splitlines() if x.startswith(f"<@{ann.id}> ") and ": " in x]
        if found:
            [line] = found
            said = line.removeprefix(f"<@{ann.id}> ")
            assert re.fullmatch(
                rf"[+{MINUS}]?\d+ chips: .*points [+{MINUS}]?\d+ \([+{MINUS}]?\d+ points?\).*",
                said,
            ), said
        else:
            # The cards are dealt at random: a game where nothing moved has no breakdown line,
            # and is "0 chips" everywhere.
            assert f"<@{ann.id}> 0 chips" in posted, posted
            said = "0 chips"
    else:
        # A wager's line: "<@ann>: Main bet +5 (why), ..."; the breakdown names each wager.
        [line] = [x for x in posted.splitlines() if x.startswith(f"<@{ann.id}>: ")]
        wagers = re.findall(rf"(?:^|, )([^,(]+? [+{MINUS}]?\d+) \(", line.split(": ", 1)[1])
        assert wagers, line
        said = None
    history = (await ann.slash(scene.channel, "history")).response.content
    [entry] = [x for x in history.splitlines() if x.startswith(f"Game {number} (")]
    shown = entry.split("): settled, ", 1)[1]
    reviewed = (await ann.slash(scene.channel, "review", game=number)).response.content
    [at_table] = [x for x in reviewed.splitlines() if x.startswith("At the table: ")]
    assert at_table == f"At the table: {shown}."
    if said is not None:
        assert shown == said
    else:
        assert shown.split(": ", 1)[1] == ", ".join(wagers)
    if said != "0 chips":
        # Chips moved: the line goes on to say how.
        assert re.match(rf"[+{MINUS}]?\d+ chips: ", shown), shown
