"""Ratings and seasons through the simulated Discord: a game between people moves their ratings
(the winner's up, the loser's down), computers and practice tables are not rated, and a season
that ended on the store's clock keeps its final standings for ``/season``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.cogs.helpers import Scene, an_admin, open_table, play_out, play_person, start_game


async def balances(scene: Scene, members: list[Any]) -> dict[int, int]:
    players = scene.bot.services.storage.players
    return {m.id: await players.balance(scene.guild.id, m.id) for m in members}


async def shown(scene: Scene, members: list[Any]) -> dict[int, int]:
    """Each member's rating in the Standard game (1,000 before their first)."""
    ratings = scene.bot.services.storage.ratings
    found = {m.id: await ratings.player(scene.guild.id, m.id) for m in members}
    return {user: rows[0].shown if rows else 1_000 for user, rows in found.items()}


async def a_decided_game(scene: Scene) -> tuple[Any, Any, dict[int, int], int]:
    """Standard games between two people until one is not a push (the deal is random): the
    winner, the loser, their ratings before that game, and how many games were played."""
    for played in range(1, 6):
        members = scene.members[:2]
        before, rated = await balances(scene, members), await shown(scene, members)
        if played == 1:
            await start_game(scene, "standard", 2)
        else:
            assert (await members[0].slash(scene.channel, "table start")).acknowledged
        await play_out(scene, members, "text")
        await scene.env.settle()
        after = await balances(scene, members)
        nets = {user: after[user] - before[user] for user in after}
        if len(set(nets.values())) == 2:
            winner, loser = sorted(members, key=lambda m: -nets[m.id])
            return winner, loser, rated, played
    raise AssertionError("five pushes in a row")


async def test_a_game_between_people_moves_the_winners_rating_up_and_the_losers_down(
    scene: Scene,
) -> None:
    winner, loser, before, played = await a_decided_game(scene)
    ratings = scene.bot.services.storage.ratings
    [won] = await ratings.player(scene.guild.id, winner.id)
    [lost] = await ratings.player(scene.guild.id, loser.id)
    assert won.shown > before[winner.id] and lost.shown < before[loser.id]
    assert won.games == lost.games == played
    said = await loser.slash(scene.channel, "rating", player=winner.user)
    rank = "**#1**" if won.shown > lost.shown else "**#2**"
    assert said.response.content.split("\n")[1] == (
        f"- Standard (17 cards): **{won.shown:,}** ({played} games rated); {rank} this season"
        f" ({played} rated)"
    )
    board = await loser.slash(scene.channel, "leaderboard", by="rating", game="standard")
    top, bottom = sorted((won, lost), key=lambda r: -r.shown)
    # The numbers as English writes them (a rating of 1,069).
    assert board.response.content.split("\n") == [
        "**Rating, season 1, Standard (17 cards)**",
        f"1. <@{top.user_id}> {top.shown:,}",
        f"2. <@{bottom.user_id}> {bottom.shown:,}",
    ]
    # The other boards still answer.
    assert "Chips" in (await loser.slash(scene.channel, "leaderboard")).response.content


async def test_a_rating_board_needs_a_game(scene: Scene) -> None:
    ann = scene.members[0]
    refused = await ann.slash(scene.channel, "leaderboard", by="rating")
    assert refused.ephemeral
    assert refused.response.content == "Ratings are kept per game: choose one with `game:`."


async def test_a_game_with_a_computer_rates_only_its_people(scene: Scene) -> None:
    ann, bob = await open_table(scene, "casino", 2)
    await ann.slash(scene.channel, "table addbot", level="steady")
    await ann.slash(scene.channel, "table start")
    await play_out(scene, [ann, bob], "builder")
    await scene.env.settle()
    database = scene.bot.database
    assert database is not None
    rated = await database.fetchall("SELECT user_id FROM ratings ORDER BY user_id")
    assert rated == sorted([(ann.id,), (bob.id,)])


async def test_a_practice_table_rates_nobody(scene: Scene) -> None:
    ann = scene.members[0]
    await ann.slash(scene.channel, "table create", game="casino", practice=True, seats=3)
    await ann.slash(scene.channel, "table start")
    await play_person(scene, ann)
    await scene.env.settle()
    answer = await ann.slash(scene.channel, "rating")
    assert answer.response.content == (
        f"<@{ann.id}> has no rating here yet: a game against at least one other person "
        "(not at a practice table) gives one."
    )


async def test_a_season_rolls_over_on_the_clock_and_keeps_its_final_standings(
    scene: Scene,
) -> None:
    database = scene.bot.database
    assert database is not None
    admin = an_admin(scene)
    set_ = await admin.slash(scene.channel, "settings season", days=10)
    assert "A rating season lasts **10** days" in set_.response.content
    now = datetime.now(UTC)
    database.clock = lambda: now
    winner, loser, _, played = await a_decided_game(scene)
    players = [winner, loser]
    ratings = scene.bot.services.storage.ratings
    before = {m.id: (await ratings.player(scene.guild.id, m.id))[0] for m in players}
    under_way = await players[0].slash(scene.channel, "season", game="standard")
    assert under_way.response.content.startswith("Season 1 is under way since")
    # Eleven days on: the first read after the season's end rolls it over.
    database.clock = lambda: now + timedelta(days=11)
    current = await players[0].slash(scene.channel, "season")
    assert current.response.content.split("\n") == [
        current.response.content.split("\n")[0],
        "Nobody is rated yet.",
    ]
    assert current.response.content.startswith("Season 2 is under way since")
    ended = await players[1].slash(scene.channel, "season", number=1, game="standard")
    lines = ended.response.content.split("\n")
    assert lines[0].startswith("Season 1 ran from")
    top, bottom = sorted(before.values(), key=lambda r: -r.shown)
    assert top.shown > bottom.shown
    assert lines[1:] == [
        "**Standard (17 cards)**",
        f"1. <@{top.user_id}> **{top.shown:,}** ({played} games)",
        f"2. <@{bottom.user_id}> **{bottom.shown:,}** ({played} games)",
    ]
    # Softened toward a new player's 1,000 at the new season's start.
    for member in players:
        [after] = await ratings.player(scene.guild.id, member.id)
        assert abs(after.mu - 25) < abs(before[member.id].mu - 25)
    later = await players[0].slash(scene.channel, "season", number=3)
    assert later.response.content == "There is no season 3 yet: season 2 is under way."
