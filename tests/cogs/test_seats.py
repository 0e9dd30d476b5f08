"""Who sits where, through the simulated Discord: computers at every table of a server, removed by
the host, held to the server's settings of the moment; and what a cancel says of the chips."""

from __future__ import annotations

from tests.cogs.helpers import Scene, an_admin, custom_ids, labels, lobby_message, the_table

#: The menu under a lobby that seats computers: the host removes one with it.
REMOVE_COMPUTER = "pp:remove:computer"


async def test_a_second_tables_host_seats_a_computer_too(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    other = scene.guild.create_text_channel("poker-two")
    await ann.slash(scene.channel, "table create", game="showdown")
    added = await ann.slash(scene.channel, "table addbot")
    assert added.response.content == "A computer sits at the table."
    await bob.slash(other, "table create", game="casino")
    added = await bob.slash(other, "table addbot")
    # Was: "You already sit at a table in #pyramid; a player sits at one table per server."
    assert added.response.content == "A computer sits at the table."
    practice = scene.guild.create_text_channel("practice")
    cy = scene.members[2]
    await cy.slash(practice, "table create", game="casino", practice=True, seats=2)
    started = await cy.slash(practice, "table start")
    assert started.response.content == "Dealt. Cards are on their way by DM."


async def test_a_table_closed_with_its_channel_dms_its_people_and_no_computer(
    scene: Scene,
) -> None:
    ann = scene.members[0]
    await ann.slash(scene.channel, "table create", game="casino")
    for _ in range(2):
        await ann.slash(scene.channel, "table addbot")
    await ann.slash(scene.channel, "table start")
    await scene.env.settle()
    since = len(scene.env.http_requests)
    scene.env.backend.delete_channel(scene.channel.id)
    await scene.env.settle()
    assert not await scene.tables.tables()
    opened = [
        request.json["recipient_id"]
        for request in scene.env.http_requests[since:]
        if request.method == "POST" and request.path == "/users/@me/channels"
    ]
    # Was: a DM channel opened for Computer 1 and Computer 2 (ann's was open already).
    assert all(int(recipient) > 0 for recipient in opened), opened
    told = ann.user.dm_channel.last_message.content
    assert "was closed" in told and "The 5 chips you had put up came back to you." in told


async def test_cancel_says_what_became_of_the_chips(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    await ann.slash(scene.channel, "table create", game="showdown")
    cancelled = await ann.slash(scene.channel, "table cancel")
    # Was: "The table is closed; every chip put up was returned." with no chip put up.
    assert cancelled.response.content == "The table is closed; it held no chips."
    await ann.slash(scene.channel, "table create", game="showdown")
    await bob.slash(scene.channel, "table join")
    await ann.slash(scene.channel, "table start")
    cancelled = await ann.slash(scene.channel, "table cancel")
    assert cancelled.response.content == (
        "The table is closed; game 1 was called off and 20 chips went back to the 2 players who "
        "put them up."
    )
    await ann.slash(scene.channel, "table create", game="casino", practice=True, seats=2)
    await ann.slash(scene.channel, "table start")
    cancelled = await ann.slash(scene.channel, "table cancel")
    assert cancelled.response.content == (
        "The table is closed; game 2 was called off, with no chips held for it."
    )


async def test_a_server_forbidding_computers_reaches_an_open_lobby(scene: Scene) -> None:
    ann, boss = scene.members[0], an_admin(scene)
    await ann.slash(scene.channel, "table create", game="showdown")
    await boss.slash(scene.channel, "settings tables", computers=False)
    refused = await ann.slash(scene.channel, "table addbot")
    # Was: "A computer sits at the table."
    assert refused.ephemeral
    assert refused.response.content == "This server does not seat computers at its tables."
    assert await the_table(scene) is not None and not (await the_table(scene)).lobby().computers


async def test_the_host_removes_a_computer_by_command_or_from_the_lobby(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    await ann.slash(scene.channel, "table create", game="showdown")
    for level in ("casual", "strong", "steady"):
        await ann.slash(scene.channel, "table addbot", level=level)
    # Was: the command took only a member, so no computer could be named.
    removed = await ann.slash(scene.channel, "table kick", computer=2)
    assert removed.response.content == "Computer 2 was removed."
    assert [s.user for s in (await the_table(scene)).seats] == [ann.id, -1, -3]
    await scene.env.settle()
    lobby = lobby_message(scene)
    assert REMOVE_COMPUTER in custom_ids(lobby)
    # Only the host removes one; the menu answers anyone else with a sentence.
    refused = await bob.select(lobby, ["3"], custom_id=REMOVE_COMPUTER)
    [sentence] = refused.followups
    assert sentence.ephemeral and sentence.content == (
        "Only the table's host or a server admin can remove a computer."
    )
    pressed = await ann.select(lobby, ["3"], custom_id=REMOVE_COMPUTER)
    assert pressed.acknowledged
    assert [s.user for s in (await the_table(scene)).seats] == [ann.id, -1]
    assert "Computer 3" not in lobby_message(scene).content
    pressed = await ann.select(lobby_message(scene), ["1"], custom_id=REMOVE_COMPUTER)
    assert pressed.acknowledged
    # No computer left: the menu goes, Add computer stays.
    lobby = lobby_message(scene)
    assert REMOVE_COMPUTER not in custom_ids(lobby) and "Add computer" in labels(lobby)
    missing = await ann.slash(scene.channel, "table kick", computer=4)
    assert missing.response.content == "There is no Computer 4 at this table."
    neither = await ann.slash(scene.channel, "table kick")
    assert neither.response.content == "Name the player or the computer to remove."


async def test_a_server_admin_removes_a_player_from_a_table_they_do_not_sit_at(
    scene: Scene,
) -> None:
    ann, bob, cy = scene.members[:3]
    boss = an_admin(scene)
    await ann.slash(scene.channel, "table create", game="showdown")
    for member in (bob, cy):
        await member.slash(scene.channel, "table join")
    # Was: "Only the table's host can remove a player."
    refused = await bob.slash(scene.channel, "table kick", player=cy)
    assert refused.response.content == (
        "Only the table's host or a server admin can remove a player."
    )
    removed = await boss.slash(scene.channel, "table kick", player=ann)
    assert removed.response.content == f"<@{ann.id}> was removed."
    table = await the_table(scene)
    assert table.players == (bob.id, cy.id) and table.host == bob.id
    await scene.env.settle()
    said = [m.content for m in scene.channel.history()]
    assert f"<@{ann.id}> was removed by <@{boss.id}>." in said
