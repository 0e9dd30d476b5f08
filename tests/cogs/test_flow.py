"""Complete games through slash commands, buttons and DMs, as players would play them."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from tables.games import GAMES
from tables.phase import Phase
from tests.cogs.helpers import (
    Scene,
    labels,
    open_table,
    play_out,
    showdowns,
    start_game,
    the_table,
)

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


async def test_the_showdown_notifies_each_player_and_only_them(scene: Scene) -> None:
    players = await start_game(scene, "showdown", 3)
    ann, bob, cy = players
    await cy.user.click(cy.user.dm_channel.last_message, label="Surrender")
    await play_out(scene, [ann, bob], "suggest")
    [post] = showdowns(scene)
    # Was: nobody (no mention allowed). The one who surrendered hears that the game ended too.
    pinged = scene.env.backend.messages[scene.channel.id][post.id].ping_user_ids
    assert sorted(pinged) == sorted(member.id for member in players)


@pytest.mark.slow  # six players asking the solver for 25-card settings
async def test_a_six_player_showdown_is_posted_whole_for_phones_and_in_full_on_request(
    scene: Scene,
) -> None:
    players = await start_game(scene, "showdown", 6)
    await play_out(scene, players, "suggest")
    [post] = showdowns(scene)
    # Was one picture of 3,227 pixels: now the summary, with every seat on one line.
    [attached] = post.attachments
    posted = Image.open(io.BytesIO(await attached.read()))
    assert posted.height <= 1400 and "Full showdown" in labels(post)
    game = int(post.content.split("game ")[1].split(".")[0])
    full = await players[3].click(post, label="Full showdown")
    assert full.ephemeral
    assert full.response.content.startswith(f"**Full showdown, game {game}.**")
    [picture] = full.response.attachments
    assert Image.open(io.BytesIO(await picture.read())).height > 1400
