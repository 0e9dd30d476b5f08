"""Complete games through slash commands, buttons and DMs, as players would play them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.builder import held_indices
from tables.games import GAMES
from tables.phase import Phase
from tests.cogs.conftest import Scene
from tests.tables.helpers import quick_arranger


async def open_table(scene: Scene, game: str, count: int, **options: Any) -> list[Any]:
    ann, *others = scene.members[:count]
    result = await ann.slash(scene.channel, "table create", game=game, **options)
    assert result.acknowledged
    for member in others:
        joined = await member.slash(scene.channel, "table join")
        assert joined.acknowledged
    return scene.members[:count]


async def the_table(scene: Scene) -> Any:
    return await scene.tables.table(scene.guild.id, scene.channel.id)


async def play_out(scene: Scene, players: list[Any], how: str) -> None:
    """Declare play for everyone, then set hands by text, by suggestion or by the timer."""
    while (table := await the_table(scene)) is not None and table.in_game:
        if table.phase is Phase.DECLARING:
            for member in players:
                if member.id in table.waiting_for():
                    message = member.user.dm_channel.last_message
                    result = await member.user.click(message, label="Play")
                    assert result.acknowledged
        elif table.phase is Phase.ARRANGING:
            for member in players:
                if member.id not in table.waiting_for():
                    continue
                if how == "text":
                    await by_text(member, scene)
                elif how == "builder":
                    await build(member, scene)
                elif how == "suggest":
                    message = member.user.dm_channel.last_message
                    shown = await member.user.click(message, label="Suggest")
                    assert shown.acknowledged
                    taken = await member.user.click(shown.response.message, label="Take it")
                    assert taken.acknowledged
            if how == "timer":
                await scene.env.advance_time(table.config.arrangement_seconds + 1)
        else:
            break


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


async def by_text(member: Any, scene: Scene) -> None:
    """Set the hands with /arrange hands: a picture previews them, Set these hands sets them."""
    table = await the_table(scene)
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)
    setting = quick_arranger(table.spec, held)
    options = {"automatic": setting.automatic} if setting.automatic else {}
    preview = await member.slash(scene.channel, "arrange hands", hands=setting.text, **options)
    assert preview.acknowledged and preview.response.content.startswith("Preview:")
    assert preview.response.attachments
    assert (await the_table(scene)).seat_of(member.id).setting is None  # not set until confirmed
    confirmed = await member.click(preview.response.message, label="Set these hands")
    assert confirmed.acknowledged
    assert confirmed.response.content.startswith("Your hands are set")


async def build(member: Any, scene: Scene) -> None:
    """Set the hands with the menus of the DM's Build hands, one hand at a time."""
    table = await the_table(scene)
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)
    setting = quick_arranger(table.spec, held)
    if setting.automatic:  # an automatic is declared in text; the menus set hands only
        await by_text(member, scene)
        return
    shown = await member.user.click(member.user.dm_channel.last_message, label="Build hands")
    builder = shown.response.message
    for chosen in held_indices(held, setting.hands):
        picked = await member.user.select(builder, [DIGITS[i] for i in chosen])
        assert picked.acknowledged
    submitted = await member.user.click(builder, label="Submit")
    assert submitted.acknowledged
    assert submitted.response.content.startswith("Your hands are set")


#: How each game's players set their hands here: each way is played in two games.
HOW = {
    "showdown": "suggest",
    "casino": "builder",
    "standard": "text",
    "no-surrender": "builder",
    "three-card": "text",
    "paigow": "builder",
}


#: Table sizes from two to six across the games.
PLAYERS = {
    "showdown": 6,
    "casino": 4,
    "standard": 2,
    "no-surrender": 3,
    "three-card": 5,
    "paigow": 6,
}


# Showdown (six players asking the solver for 25-card settings) is the heaviest game; the quick
# loop meets Suggest in test_edges, test_experience and test_hardening.
@pytest.mark.parametrize(
    "game",
    [pytest.param(g, marks=pytest.mark.slow) if g == "showdown" else g for g in sorted(GAMES)],
)
async def test_a_whole_game_through_discord(scene: Scene, game: str) -> None:
    count = PLAYERS[game]
    players = await open_table(scene, game, count)
    accounts = scene.bot.services.storage.players
    before = {m.id: await accounts.balance(scene.guild.id, m.id) for m in players}
    start = await players[0].slash(scene.channel, "table start")
    assert start.acknowledged
    # Every player got a DM naming the server and the channel, with a picture of their cards.
    for member in players:
        dm = member.user.dm_channel.last_message
        assert dm is not None and "Poker Club" in dm.content and dm.attachments
    await play_out(scene, players, HOW[game])
    table = await the_table(scene)
    assert table is not None and table.phase is Phase.LOBBY and table.games_played == 1
    showdown = [m for m in scene.channel.history() if m.content.startswith("**Showdown, game")]
    assert len(showdown) == 1 and showdown[0].attachments
    assert showdown[0].attachments[0].size < 1_000_000
    # Each player's chips moved by exactly the net the showdown message announced (signed as
    # in the pictures: +5, 0, or a true minus).
    first_line = showdown[0].content.split("\n")[0]
    said = re.findall(r"<@(\d+)> ([+\N{MINUS SIGN}]?[\d,]+)", first_line)
    nets = {
        int(user): int(net.replace("\N{MINUS SIGN}", "-").replace(",", "")) for user, net in said
    }
    assert set(nets) == {m.id for m in players}
    assert not re.search(r"<@\d+> -", first_line)  # a loss as the picture shows it
    for member in players:
        after = await accounts.balance(scene.guild.id, member.id)
        assert after - before[member.id] == nets[member.id], member.id
    board = await players[0].slash(scene.channel, "leaderboard", by="net")
    assert board.acknowledged and "Net winnings" in board.response.content
