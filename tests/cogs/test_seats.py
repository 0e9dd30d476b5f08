"""Who sits where, through the simulated Discord: computers at every table of a server, removed by
the host, held to the server's settings of the moment; and what a cancel says of the chips."""

from __future__ import annotations

from tests.cogs.conftest import Scene


async def test_a_second_tables_host_seats_a_computer_too(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    other = scene.guild.create_text_channel("poker-two")
    await ann.slash(scene.channel, "table create", game="showdown")
    assert "computer sits" in (await ann.slash(scene.channel, "table addbot")).response.content
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
