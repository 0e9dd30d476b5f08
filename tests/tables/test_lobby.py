"""The lobby and bad input: every refused action gets a sentence and changes nothing."""

from __future__ import annotations

import functools

import pytest

from engine.errors import GameError
from tables.config import make_config
from tables.events import DeclarationsRevealed, Event, PlayerLeft, TableClosed
from tables.manager import NO_TABLE
from tables.phase import Phase
from tables.setting import Setting
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    HOST,
    OTHER_CHANNEL,
    OTHER_GUILD,
    PLAYERS,
    STRANGER,
    World,
    refused_with,
    submit_text,
)


async def open_table(world: World, game: str = "showdown", count: int = 2) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config(game))
    for user in PLAYERS[1:count]:
        await world.manager.join(GUILD, CHANNEL, user)


async def refused(world: World, sentence: str, action: object) -> None:
    """The awaited action is refused with exactly ``sentence`` and the table is unchanged."""
    before = await world.manager.table(GUILD, CHANNEL)
    with pytest.raises(GameError) as refusal:
        await action  # type: ignore[misc]
    assert str(refusal.value) == sentence
    assert await world.manager.table(GUILD, CHANNEL) == before


async def refused_for_the_cards(world: World, pattern: str, action: object) -> None:
    """``refused``, for a sentence that names cards of the deal (matched by ``pattern``)."""
    before = await world.manager.table(GUILD, CHANNEL)
    with pytest.raises(GameError, match=pattern):
        await action  # type: ignore[misc]
    assert await world.manager.table(GUILD, CHANNEL) == before


async def test_one_table_per_channel(world: World) -> None:
    await open_table(world)
    await refused(
        world,
        "This channel already has a table; join it or cancel it first.",
        world.manager.create(GUILD, CHANNEL, STRANGER, make_config("casino")),
    )


async def test_a_player_sits_at_one_table_per_server(world: World) -> None:
    await open_table(world)
    await world.manager.create(GUILD, OTHER_CHANNEL, STRANGER, make_config("casino"))
    with pytest.raises(GameError) as refusal:
        await world.manager.join(GUILD, OTHER_CHANNEL, PLAYERS[1])
    assert str(refusal.value) == (
        f"You already sit at a table in channel {CHANNEL}; a player sits at one table per server."
    )
    # Another server is another purse and another seat.
    await world.manager.create(OTHER_GUILD, CHANNEL, PLAYERS[1], make_config("casino"))


async def test_joining_twice_changes_nothing(world: World) -> None:
    await open_table(world)
    assert await world.manager.join(GUILD, CHANNEL, PLAYERS[1]) == ()


async def test_full_table_and_game_under_way_refuse_a_join(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown", seats=2))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await refused(
        world, "This table is full (2 seats).", world.manager.join(GUILD, CHANNEL, PLAYERS[2])
    )
    await world.manager.start(GUILD, CHANNEL, HOST)
    await refused(
        world,
        "A game is under way at this table; join when it has ended.",
        world.manager.join(GUILD, CHANNEL, STRANGER),
    )


async def test_only_the_host_starts_and_only_with_enough_players(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("standard"))
    await refused(
        world,
        "Standard (17 cards) needs at least 2 players; 1 seated.",
        world.manager.start(GUILD, CHANNEL, HOST),
    )
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await refused(
        world,
        "Only the table's host can start the game.",
        world.manager.start(GUILD, CHANNEL, PLAYERS[1]),
    )


async def test_start_is_refused_when_a_player_is_short_and_nothing_is_escrowed(
    world: World,
) -> None:
    await open_table(world, "standard")
    await world.storage.players.take(GUILD, PLAYERS[1], 990, admin_id=1)
    with refused_with(f"Not enough chips: player {PLAYERS[1]} has 10 and needs 20."):
        await world.manager.start(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY
    assert await world.storage.players.balance(GUILD, HOST) == 1_000
    assert await world.open_games() == []
    await world.check_ledger()


async def test_strangers_and_wrong_phases_are_refused(world: World) -> None:
    await open_table(world)
    manager = world.manager
    await refused(
        world, "There is no declaration to make now.", manager.declare(GUILD, CHANNEL, HOST, True)
    )
    await manager.start(GUILD, CHANNEL, HOST)
    await refused(
        world, "You are not seated at this table.", manager.declare(GUILD, CHANNEL, STRANGER, True)
    )
    held = world.publisher.held(HOST)
    early = Setting((held[:1],))
    await refused(
        world, "Hands are not being set now.", manager.submit(GUILD, CHANNEL, HOST, early)
    )
    await refused(
        world,
        "You cannot leave during a game; surrender, or wait for the end.",
        manager.leave(GUILD, CHANNEL, HOST),
    )
    await refused(
        world,
        "Only the table's host or a server admin can cancel the table.",
        manager.cancel(GUILD, CHANNEL, STRANGER),
    )
    with pytest.raises(GameError) as refusal:
        await manager.declare(GUILD, OTHER_CHANNEL, HOST, True)
    assert str(refusal.value) == str(NO_TABLE)


async def test_malformed_and_foreign_and_fouled_hands_are_refused(world: World) -> None:
    await open_table(world, "no-surrender")
    await world.manager.start(GUILD, CHANNEL, HOST)
    typed = functools.partial(submit_text, world.manager, GUILD, CHANNEL, HOST)
    await refused(
        world,
        "I can't read 'Zz' as cards: a card is a rank (2-9, T or 10, J, Q, K, A) followed by a "
        "suit (s, h, d, c or ♠ ♥ ♦ ♣), like As or 10h; a joker is W.",
        typed("Zz | 1x"),
    )
    await refused_for_the_cards(
        world, "^You do not hold an? ", typed("As Ks Qs | Js Ts 9s 8s 7s | 6s 5s 4s 3s 2s")
    )
    held = sorted(world.publisher.held(HOST), key=lambda card: card.code)
    # The weakest cards in the back and the strongest in front: the order rule is broken.
    cards = [card.pretty for card in held]
    text = " ".join(cards[-3:]) + " | " + " ".join(cards[5:10]) + " | " + " ".join(cards[:5])
    await refused_for_the_cards(world, "^The back hand must be at least as strong as", typed(text))


async def test_a_player_short_of_the_stake_cannot_play_on(world: World) -> None:
    await open_table(world)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.storage.players.take(GUILD, PLAYERS[1], 985, admin_id=1)
    await refused(
        world,
        "Playing on costs 10 chips and you have 5; surrender instead.",
        world.manager.declare(GUILD, CHANNEL, PLAYERS[1], True),
    )
    # Surrendering is always possible.
    await world.manager.declare(GUILD, CHANNEL, PLAYERS[1], False)


async def test_the_declaration_that_reveals_is_refused_when_its_player_is_short(
    world: World,
) -> None:
    # On PostgreSQL the reveal's escrow checks the declarer's balance (no read before it): a
    # short declarer is refused as any other, and no stake of anyone is taken.
    await open_table(world)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, HOST, True)
    await world.storage.players.take(GUILD, PLAYERS[1], 985, admin_id=1)
    await refused(
        world,
        "Playing on costs 10 chips and you have 5; surrender instead.",
        world.manager.declare(GUILD, CHANNEL, PLAYERS[1], True),
    )
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.game_id is not None
    escrowed = await world.storage.chips.escrowed(table.game_id)
    assert escrowed == {HOST: 10, PLAYERS[1]: 10}  # the antes alone
    await world.manager.declare(GUILD, CHANNEL, PLAYERS[1], False)


def revealed(events: tuple[Event, ...]) -> DeclarationsRevealed:
    (reveal,) = [event for event in events if isinstance(event, DeclarationsRevealed)]
    return reveal


async def test_a_player_short_at_the_reveal_surrenders_and_the_others_are_escrowed(
    world: World,
) -> None:
    # A player's chips fell after their declaration: on PostgreSQL the save of the declaration
    # that reveals, which takes the stakes itself, is refused, and the reveal runs again under
    # the table's lock, where that player surrenders; the others' stakes are taken once.
    await open_table(world, count=3)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, HOST, True)
    await world.manager.declare(GUILD, CHANNEL, PLAYERS[1], True)
    await world.storage.players.take(GUILD, PLAYERS[1], 985, admin_id=1)
    reveal = revealed(await world.manager.declare(GUILD, CHANNEL, PLAYERS[2], True))
    assert reveal.short == (PLAYERS[1],)
    assert PLAYERS[1] in reveal.surrendered
    assert reveal.escrowed == {HOST: 10, PLAYERS[2]: 10}
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.game_id is not None
    escrowed = await world.storage.chips.escrowed(table.game_id)
    assert escrowed == {HOST: 20, PLAYERS[1]: 10, PLAYERS[2]: 20}
    assert await world.storage.players.balance(GUILD, PLAYERS[1]) == 5


async def test_a_stake_escrowed_before_a_lost_save_is_not_taken_again(world: World) -> None:
    # The reveal's escrow committed, then the save did not (a crash between them, as the slower
    # way can leave it): the reveal run again takes the other stakes and not that one twice.
    await open_table(world, count=2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.game_id is not None
    await world.manager.declare(GUILD, CHANNEL, HOST, True)
    await world.storage.chips.escrow(table.game_id, {HOST: 10}, table.reveal_stakes_reason())
    reveal = revealed(await world.manager.declare(GUILD, CHANNEL, PLAYERS[1], True))
    assert reveal.played == (HOST, PLAYERS[1])
    assert reveal.escrowed == {PLAYERS[1]: 10}  # taken now; the host's was taken before
    assert await world.storage.chips.escrowed(table.game_id) == {HOST: 20, PLAYERS[1]: 20}
    assert await world.storage.players.balance(GUILD, HOST) == 980


async def test_host_leaving_passes_the_table_and_the_last_one_closes_it(world: World) -> None:
    await open_table(world, count=2)
    events = await world.manager.leave(GUILD, CHANNEL, HOST)
    assert len(events) == 1 and isinstance(events[0], PlayerLeft)
    assert (events[0].user, events[0].new_host) == (HOST, PLAYERS[1])
    assert events[0].lobby.host == PLAYERS[1] and HOST not in events[0].lobby.players
    events = await world.manager.leave(GUILD, CHANNEL, PLAYERS[1])
    assert isinstance(events[-1], TableClosed)
    assert await world.manager.table(GUILD, CHANNEL) is None
    assert await world.storage.snapshots.load(GUILD, CHANNEL) is None


async def test_refused_start_leaves_no_game_behind(world: World) -> None:
    await open_table(world, "three-card")
    await world.storage.players.take(GUILD, HOST, 999, admin_id=1)
    with pytest.raises(GameError):
        await world.manager.start(GUILD, CHANNEL, HOST)
    # The game row is part of the Start's one transaction: no open or refunded game is left.
    assert await world.database.fetchall("SELECT id, status FROM games") == []
