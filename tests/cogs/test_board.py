"""The table's message while a game is played: the lobby becomes it at Start, and each step
edits it with who is done (never what they chose) and the deadline; Rules and Show my hand."""

from __future__ import annotations

from typing import Any

from tests.cogs.helpers import (
    Scene,
    board_message,
    labels,
    lobby_message,
    open_table,
    play_out,
    showdowns,
    the_table,
)


async def board_lines(scene: Scene) -> list[str]:
    return list(board_message(scene).content.splitlines())


def ends(deadline: float | None) -> str:
    assert deadline is not None
    return f", ends <t:{int(deadline)}:R>."


async def test_the_lobby_becomes_the_tables_message_and_follows_the_game(scene: Scene) -> None:
    players = await open_table(scene, "showdown", 3)
    ann, bob, cy = players
    lobby = lobby_message(scene)
    assert (await ann.click(lobby, label="Start")).acknowledged
    await scene.env.settle()
    table = await the_table(scene)
    game = table.game_id
    assert game is not None
    held = sum((await scene.bot.services.storage.chips.escrowed(game)).values())
    who = f"<@{ann.id}>, <@{bob.id}>, <@{cy.id}>"
    first = f"**Showdown Version**, game {game}, with {who}; {held:,} chips held."
    hand = "**Show my hand** shows your cards here, to you alone."
    # Was: "Game N started with ..." and nothing more until the showdown.
    message = board_message(scene)
    assert message.id == lobby.id  # the lobby became it
    assert message.content.splitlines() == [
        first,
        f"Now: declaration 1 of 2: play or surrender, by DM{ends(table.deadline)}",
        f"Done: nobody yet. Waiting for: {who}.",
        hand,
    ]
    assert labels(message) == ["Show my hand", "Rules"]
    # Who is done shows; what they chose never does.
    await cy.user.click(cy.user.dm_channel.last_message, label="Surrender")
    await ann.user.click(ann.user.dm_channel.last_message, label="Play")
    await scene.env.settle()
    assert (await board_lines(scene))[2] == (
        f"Done: <@{ann.id}>, <@{cy.id}>. Waiting for: <@{bob.id}>."
    )
    await bob.user.click(bob.user.dm_channel.last_message, label="Play")
    await scene.env.settle()
    table = await the_table(scene)
    lines = await board_lines(scene)
    assert lines[1:3] == [
        f"Now: declaration 2 of 2: play or surrender, by DM{ends(table.deadline)}",
        f"Done: nobody yet. Waiting for: <@{ann.id}>, <@{bob.id}>.",
    ]
    rules = await bob.click(board_message(scene), label="Rules")
    [card] = rules.response.embeds
    assert rules.ephemeral and card.title == "Showdown Version: How a game goes"
    await play_out(scene, [ann, bob], "suggest")
    await scene.env.settle()
    message = board_message_after(scene, lobby.id)
    assert message.content.splitlines() == [first, "The game is over: the showdown is below."]
    assert labels(message) == ["Rules"]
    assert len(showdowns(scene)) == 1


def board_message_after(scene: Scene, message_id: int) -> Any:
    """The table's message once its game is over (Show my hand is gone from it)."""
    return next(m for m in scene.channel.history() if m.id == message_id)


async def test_after_a_restart_the_next_step_edits_the_same_tables_message(scene: Scene) -> None:
    players = await open_table(scene, "standard", 2)
    ann, bob = players
    assert (await ann.slash(scene.channel, "table start")).acknowledged
    await scene.env.settle()
    posted = board_message(scene)
    assert posted.content.splitlines()[1].startswith("Now: declaration 1: play or surrender")
    await scene.restart()
    for member in players:
        await member.user.click(member.user.dm_channel.last_message, label="Play")
    await scene.env.settle()
    table = await the_table(scene)
    again = board_message(scene)
    # Was: a second message, the first left showing declaration 1.
    assert again.id == posted.id
    assert len([m for m in scene.channel.history() if m.content.startswith("**Standard")]) == 1
    assert again.content.splitlines()[1:3] == [
        f"Now: setting hands, by DM{ends(table.deadline)}",
        f"Done: nobody yet. Waiting for: <@{ann.id}>, <@{bob.id}>.",
    ]


async def test_a_step_played_by_a_process_that_never_saw_the_game_shows_on_its_message(
    scene: Scene,
) -> None:
    """In a cluster a DM click is played by shard 0's process, which did not show the game
    until then: it reads the table and the message from the store, and edits that message."""
    players = await open_table(scene, "showdown", 3)
    ann, bob, cy = players
    lobby = lobby_message(scene)
    assert (await ann.click(lobby, label="Start")).acknowledged
    await scene.env.settle()
    await cy.user.click(cy.user.dm_channel.last_message, label="Surrender")
    await scene.env.settle()
    # This process forgets the game, as another process never knew it.
    boards = scene.bot.services.boards
    boards._boards.clear()
    await ann.user.click(ann.user.dm_channel.last_message, label="Play")
    await scene.env.settle()
    assert board_message(scene).id == lobby.id
    assert (await board_lines(scene))[2] == (
        f"Done: <@{ann.id}>, <@{cy.id}>. Waiting for: <@{bob.id}>."
    )
    # And the game's end too, in the same message.
    boards._boards.clear()
    await play_out(scene, [ann, bob], "suggest")
    await scene.env.settle()
    ended = board_message_after(scene, lobby.id)
    assert ended.content.splitlines()[-1] == "The game is over: the showdown is below."
    boards_posted = [m for m in scene.channel.history() if m.content.startswith("**Showdown V")]
    assert [m.id for m in boards_posted] == [lobby.id]
