"""The publisher shows what the events carry: no table manager behind it to read back from."""

from __future__ import annotations

import pytest

from cogs.publisher import DiscordPublisher
from engine.cards import format_cards, parse_cards, sort_cards
from engine.stakes import declaration_stakes
from engine.variants import SHOWDOWN
from tables.events import (
    CardsDealt,
    DeclarationsOpened,
    GameStarted,
    Lobby,
    PlayerJoined,
    SeatResult,
    ShowdownSettled,
    TableClosed,
    TableOpened,
)
from tables.games import GAMES
from tables.runtime import DeliveryError
from tests.cogs.helpers import Scene, custom_ids

GAME_ID = 77


def publisher_alone(scene: Scene, lost: list[tuple[int, int]]) -> DiscordPublisher:
    """A publisher on the bot's client and storage, and nothing else."""

    async def on_channel_lost(guild: int, channel: int) -> None:
        lost.append((guild, channel))

    return DiscordPublisher(scene.bot, scene.bot.services.storage, on_channel_lost=on_channel_lost)


def showdown(ann: int, bob: int) -> ShowdownSettled:
    # Both surrendered at the first declaration: nothing to draw but their names.
    seats = tuple(SeatResult(user, 0, (), (), None, 0) for user in (ann, bob))
    return ShowdownSettled(
        GAME_ID, "showdown", seats, ((0, 0), (0, 0)), (ann, bob), {ann: 0, bob: 0}, 0, 0, ()
    )


async def test_the_publisher_posts_the_lobby_and_the_phase_dms_from_the_events_alone(
    scene: Scene,
) -> None:
    ann, bob = scene.members[:2]
    guild, channel = scene.guild.id, scene.channel.id
    lost: list[tuple[int, int]] = []
    publisher = publisher_alone(scene, lost)
    title = GAMES["showdown"].title
    await publisher.publish(
        guild, channel, [TableOpened(Lobby("showdown", 10, 4, ann.id, (ann.id,)))]
    )
    assert await scene.tables.table(guild, channel) is None  # nothing to read back from
    lobby = scene.channel.last_message
    assert lobby.content.startswith(f"**{title}** table, ante 10, 1/4 seats (host <@{ann.id}>)")
    assert custom_ids(lobby) == ["pp:lobby:join", "pp:lobby:leave", "pp:lobby:start"]
    seated = (ann.id, bob.id)
    await publisher.publish(
        guild, channel, [PlayerJoined(bob.id, Lobby("showdown", 10, 4, ann.id, seated))]
    )
    edited = scene.channel.last_message
    assert edited.id == lobby.id  # edited in place
    assert edited.content.split("\n")[:2] == [
        f"**{title}** table, ante 10, 2/4 seats (host <@{ann.id}>).",
        f"Seated: <@{ann.id}>, <@{bob.id}>",
    ]

    dealt = {ann.id: parse_cards("As Kd 2c"), bob.id: parse_cards("Qh Jh 3s")}
    await publisher.publish(
        guild,
        channel,
        [
            GameStarted(GAME_ID, seated, {ann.id: 10, bob.id: 10}),
            *(CardsDealt(user, cards) for user, cards in dealt.items()),
            DeclarationsOpened(
                0, seated, 1e10, declaration_stakes(SHOWDOWN, 0, players=2), 3, GAME_ID, "showdown"
            ),
        ],
    )
    # The channel hears nothing of the phase (the Start press answers there); the DMs carry it.
    assert scene.channel.last_message.id == lobby.id
    for member in (ann, bob):
        dm = member.user.dm_channel.last_message
        assert dm.content.startswith(f"**{title}** in <#{channel}>")
        assert format_cards(sort_cards(dealt[member.id])) in dm.content  # to copy
        assert dm.attachments  # the hand's picture
        assert custom_ids(dm) == [
            f"pp:declare:{guild}:{channel}:{GAME_ID}:0:play",
            f"pp:declare:{guild}:{channel}:{GAME_ID}:0:surrender",
        ]
    assert not lost


async def test_a_showdown_offers_the_next_hand_unless_its_table_closed_with_it(
    scene: Scene,
) -> None:
    ann, bob = scene.members[:2]
    guild, channel = scene.guild.id, scene.channel.id
    publisher = publisher_alone(scene, [])
    await publisher.publish(guild, channel, [showdown(ann.id, bob.id)])
    assert custom_ids(scene.channel.last_message) == [
        "pp:lobby:again",
        "pp:lobby:sit",
        "pp:lobby:stand",
        "pp:review:77",
    ]
    closed = TableClosed("No players are left at the table.")
    await publisher.publish(guild, channel, [showdown(ann.id, bob.id), closed])
    *_, last_showdown, said = scene.channel.history()
    # A closed table deals no more; its players may still review their hands.
    assert last_showdown.content.startswith("**Showdown")
    assert custom_ids(last_showdown) == ["pp:review:77"]
    assert said.content == f"Table closed: {closed.reason}"


async def test_a_showdown_is_posted_in_a_channel_this_process_does_not_cache(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process of the bot runs the server's shard: here the server and its channels are
    # unknown, but a DM click settled the game here, and the showdown belongs in the channel.
    monkeypatch.setattr(scene.bot, "get_channel", lambda channel_id: None)
    ann, bob = scene.members[:2]
    lost: list[tuple[int, int]] = []
    publisher = publisher_alone(scene, lost)
    await publisher.publish(scene.guild.id, scene.channel.id, [showdown(ann.id, bob.id)])
    posted = scene.channel.last_message
    assert posted.content.startswith(f"**Showdown, game {GAME_ID}.**") and posted.attachments
    assert not lost


async def test_a_channel_out_of_reach_is_handed_to_the_bot_with_its_server(scene: Scene) -> None:
    scene.env.inject_error(
        "POST", f"/channels/{scene.channel.id}/messages", status=403, code=50001, times=None
    )
    lost: list[tuple[int, int]] = []
    publisher = publisher_alone(scene, lost)
    await publisher.publish(scene.guild.id, scene.channel.id, [TableClosed("Gone.")])
    await scene.env.settle()
    assert lost == [(scene.guild.id, scene.channel.id)]


async def test_the_publisher_says_which_events_went_out_before_discord_refused_one(
    scene: Scene,
) -> None:
    ann, bob = scene.members[:2]
    guild, channel = scene.guild.id, scene.channel.id
    scene.env.inject_error("POST", f"/channels/{channel}/messages", status=500, times=None)
    publisher = publisher_alone(scene, [])
    seated = (ann.id, bob.id)
    events = [
        *(CardsDealt(user, parse_cards("As Kd 2c")) for user in seated),
        DeclarationsOpened(
            0, seated, 1e10, declaration_stakes(SHOWDOWN, 0, players=2), 3, GAME_ID, "showdown"
        ),
        showdown(ann.id, bob.id),
        TableClosed("No players are left at the table."),
    ]
    with pytest.raises(DeliveryError) as refused:
        await publisher.publish(guild, channel, events)
    # The DMs of the phase went out; the showdown is the message refused, the rest untried.
    assert (refused.value.shown, refused.value.upto) == (3, 4)
    assert "500" in str(refused.value)
    assert all(member.user.dm_channel.last_message for member in (ann, bob))


async def test_a_message_discord_refuses_for_good_is_dropped_with_a_log_line(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    # 400 Invalid Form Body: the message itself is wrong, so sending it again cannot help.
    scene.env.inject_error(
        "POST", f"/channels/{scene.channel.id}/messages", status=400, code=50035, times=1
    )
    lost: list[tuple[int, int]] = []
    publisher = publisher_alone(scene, lost)
    ann, bob = scene.members[:2]
    await publisher.publish(
        scene.guild.id, scene.channel.id, [showdown(ann.id, bob.id), TableClosed("Gone.")]
    )
    assert scene.channel.last_message.content == "Table closed: Gone."
    assert not lost
    assert any("could not post in channel" in r.message for r in caplog.records)
