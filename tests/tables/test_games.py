"""Full games of every variant through the table layer, with a fake publisher and real SQLite."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from storage.rows import GameStatus
from tables.config import make_config
from tables.events import (
    ArrangementSubmitted,
    DeclarationsRevealed,
    GameCancelled,
    GameStarted,
    Part,
    ShowdownSettled,
    TableClosed,
)
from tables.games import GAMES
from tables.phase import Phase
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    HOST,
    PLAYERS,
    World,
    quick_arranger,
    refused_with,
    submit_text,
)

STARTING = 1_000


async def seat(world: World, game: str, count: int, **options: object) -> tuple[int, ...]:
    config = make_config(game, **options)  # type: ignore[arg-type]
    await world.manager.create(GUILD, CHANNEL, HOST, config)
    for user in PLAYERS[1:count]:
        await world.manager.join(GUILD, CHANNEL, user)
    return PLAYERS[:count]


async def arrange_all(world: World, players: tuple[int, ...]) -> None:
    """Every player still in the game sets the solver's hands by text, as a player would."""
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.ARRANGING
    for user in table.waiting_for():
        setting = quick_arranger(table.spec, world.publisher.held(user))
        await world.manager.submit(GUILD, CHANNEL, user, setting)


async def balances(world: World, players: tuple[int, ...]) -> dict[int, int]:
    return {user: await world.storage.players.balance(GUILD, user) for user in players}


def settled(world: World) -> ShowdownSettled:
    [event] = world.publisher.of(ShowdownSettled)
    assert isinstance(event, ShowdownSettled)
    return event


async def check_end(
    world: World, players: tuple[int, ...], seated: tuple[int, ...] | None = None
) -> ShowdownSettled:
    """The game settled, chips moved by exactly its nets, and the ledger is consistent."""
    event = settled(world)
    assert await world.status(event.game_id) is GameStatus.SETTLED
    after = await balances(world, players)
    assert after == {user: STARTING + event.nets[user] for user in players}
    assert sum(event.nets.values()) + event.house == 0
    # Each player's chips by kind sum to their net.
    assert all(sum(p.chips for p in seat.breakdown) == seat.net for seat in event.seats)
    assert await world.storage.chips.escrowed(event.game_id) == {}
    await world.check_ledger()
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.LOBBY
    assert table.players == (players if seated is None else seated)
    return event


async def test_showdown_surrenders_in_each_round_then_showdown(world: World) -> None:
    players = await seat(world, "showdown", 5)
    await world.manager.start(GUILD, CHANNEL, HOST)
    # Declaration 1: the last player surrenders (pays 5 to each who plays on).
    for user in players:
        await world.manager.declare(GUILD, CHANNEL, user, user != players[4])
    # Declaration 2: the fourth surrenders (pays 10 to each who plays on).
    for user in players[:4]:
        await world.manager.declare(GUILD, CHANNEL, user, user != players[3])
    reveals = world.publisher.of(DeclarationsRevealed)
    assert [r.surrendered for r in reveals if isinstance(r, DeclarationsRevealed)] == [
        (players[4],),
        (players[3],),
    ]
    await arrange_all(world, players)
    event = await check_end(world, players)
    assert len(event.matrix) == 3 and event.matrix_players == players[:3]
    # Both surrenderers lost their ante and stakes, and paid each player who played on (the
    # second had been paid 5 by the first for playing on in declaration 1).
    assert event.nets[players[4]] == -(10 + 5 * 4)
    assert event.nets[players[3]] == -(10 + 10 + 10 * 3) + 5
    # The chips by kind reconcile each net: what the showdown's lines say.
    seats = {seat.user: seat for seat in event.seats}
    assert seats[players[4]].breakdown == (Part("ante", -10), Part("surrender", -20))
    assert seats[players[3]].breakdown == (
        Part("ante", -10),
        Part("surrender", 5 - 10 * 3),
        Part("stakes", -10),
    )
    for user in players[:3]:
        points = seats[user].points
        assert points is not None and points == sum(seats[user].per_hand)
    assert event.pot_winners and set(event.pot_winners) <= set(players[:3])
    assert [len(s.hands) for s in event.seats] == [6, 6, 6, 0, 0]


async def test_showdown_everyone_surrenders_together_shares_the_pot(world: World) -> None:
    players = await seat(world, "showdown", 3)
    await world.manager.start(GUILD, CHANNEL, HOST)
    for user in players:
        await world.manager.declare(GUILD, CHANNEL, user, False)
    event = await check_end(world, players)
    # RULINGS §2: nobody pays anybody; the antes come back as equal shares of the pot.
    assert event.nets == {user: 0 for user in players}
    assert event.pot == 30 and set(event.pot_winners) == set(players)


async def test_showdown_last_player_left_takes_the_pot(world: World) -> None:
    players = await seat(world, "showdown", 3)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, players[0], True)
    await world.manager.declare(GUILD, CHANNEL, players[1], False)
    await world.manager.declare(GUILD, CHANNEL, players[2], False)
    event = await check_end(world, players)
    assert event.pot_winners == (players[0],)
    assert event.nets[players[0]] == 20 + 5 + 5


async def test_afk_at_the_declaration_deadline_plays_on(world: World) -> None:
    players = await seat(world, "showdown", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, players[0], True)
    await world.scheduler.pass_deadline()
    [reveal] = world.publisher.of(DeclarationsRevealed)
    assert isinstance(reveal, DeclarationsRevealed)
    assert reveal.defaulted == (players[1],) and reveal.played == players


async def test_afk_surrender_setting_surrenders_the_silent_player(world: World) -> None:
    players = await seat(world, "showdown", 3, afk_plays_on=False)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, players[0], True)
    await world.manager.declare(GUILD, CHANNEL, players[1], True)
    await world.scheduler.pass_deadline()
    [reveal] = world.publisher.of(DeclarationsRevealed)
    assert isinstance(reveal, DeclarationsRevealed) and reveal.surrendered == (players[2],)


async def test_afk_at_the_arrangement_deadline_gets_the_solver(world: World) -> None:
    players = await seat(world, "no-surrender", 3)
    await world.manager.start(GUILD, CHANNEL, HOST)
    held = world.publisher.held(players[0])
    setting = quick_arranger(GAMES["no-surrender"], held)
    await world.manager.submit(GUILD, CHANNEL, players[0], setting)
    await world.scheduler.pass_deadline()
    by = {e.user: e.by for e in world.publisher.of(ArrangementSubmitted)}  # type: ignore[attr-defined]
    assert by == {players[0]: "player", players[1]: "solver", players[2]: "solver"}
    await check_end(world, players)


async def test_arrangement_may_be_replaced_before_everyone_is_in(world: World) -> None:
    players = await seat(world, "casino", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    for user in players:
        await world.manager.declare(GUILD, CHANNEL, user, True)
    first = quick_arranger(GAMES["casino"], world.publisher.held(players[0]))
    await world.manager.submit(GUILD, CHANNEL, players[0], first)
    # The same hands again change nothing (a double click).
    assert await world.manager.submit(GUILD, CHANNEL, players[0], first) == ()
    await arrange_all(world, players)
    await check_end(world, players)


async def test_host_cancels_mid_game_and_every_chip_returns(world: World) -> None:
    players = await seat(world, "showdown", 4)
    await world.manager.start(GUILD, CHANNEL, HOST)
    for user in players:
        await world.manager.declare(GUILD, CHANNEL, user, True)
    assert await balances(world, players) == {user: STARTING - 20 for user in players}
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    [cancelled] = world.publisher.of(GameCancelled)
    assert isinstance(cancelled, GameCancelled)
    assert cancelled.refunds == {user: 20 for user in players}
    assert await balances(world, players) == {user: STARTING for user in players}
    assert await world.status(cancelled.game_id) is GameStatus.REFUNDED
    assert await world.manager.table(GUILD, CHANNEL) is None
    assert world.publisher.of(TableClosed)
    await world.check_ledger()


async def test_admin_may_cancel_but_another_player_may_not(world: World) -> None:
    players = await seat(world, "standard", 2)
    with refused_with("Only the table's host or a server admin can cancel the table."):
        await world.manager.cancel(GUILD, CHANNEL, players[1])
    await world.manager.cancel(GUILD, CHANNEL, players[1], is_admin=True)
    assert await world.manager.table(GUILD, CHANNEL) is None


async def test_kicked_player_is_played_for_by_the_table(world: World) -> None:
    players = await seat(world, "standard", 3)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, players[0], True)
    await world.manager.declare(GUILD, CHANNEL, players[1], True)
    await world.manager.kick(GUILD, CHANNEL, HOST, players[2])
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.ARRANGING
    assert table.seat_of(players[2]).set_by == "solver"
    setting = quick_arranger(table.spec, table.seat_of(players[2]).held)
    with refused_with("You were removed from this game; the table plays for you."):
        await world.manager.submit(GUILD, CHANNEL, players[2], setting)
    await arrange_all(world, players)
    # After the game the kicked player no longer sits at the table.
    event = await check_end(world, players, seated=players[:2])
    assert event.seats[2].hands  # the solver set the kicked player's hands


async def test_only_the_host_kicks_and_a_lobby_kick_frees_the_seat(world: World) -> None:
    players = await seat(world, "paigow", 3)
    with refused_with("Only the table's host or a server admin can remove a player."):
        await world.manager.kick(GUILD, CHANNEL, players[1], players[2])
    await world.manager.kick(GUILD, CHANNEL, HOST, players[2])
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.players == players[:2]


ADMIN = 77


async def test_a_server_admin_removes_a_player_or_the_host_and_the_table_passes_to_the_next(
    world: World,
) -> None:
    players = await seat(world, "paigow", 3)
    # Was: "Only the table's host can remove a player." to a server admin too.
    await world.manager.kick(GUILD, CHANNEL, ADMIN, players[2], is_admin=True)
    await world.manager.kick(GUILD, CHANNEL, ADMIN, HOST, is_admin=True)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.players == (players[1],) and table.host == players[1]
    # The last person removed: the lobby closes, and its seat is free on the server.
    await world.manager.kick(GUILD, CHANNEL, ADMIN, players[1], is_admin=True)
    assert await world.manager.table(GUILD, CHANNEL) is None
    [closed] = world.publisher.of(TableClosed)
    assert isinstance(closed, TableClosed) and str(closed.reason) == "No one is left at the table."
    assert await world.manager.table_of(GUILD, players[1]) is None


async def test_a_host_an_admin_removes_mid_game_is_played_for_and_hosts_no_more(
    world: World,
) -> None:
    players = await seat(world, "standard", 3)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.kick(GUILD, CHANNEL, ADMIN, HOST, is_admin=True)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.host == players[1]
    # The removed host can no longer act as one.
    with refused_with("Only the table's host or a server admin can remove a player."):
        await world.manager.kick(GUILD, CHANNEL, HOST, players[2])
    for user in players[1:]:
        await world.manager.declare(GUILD, CHANNEL, user, True)
    await arrange_all(world, players)
    await check_end(world, players, seated=players[1:])


async def test_casino_fold_and_play_against_the_dealer(world: World) -> None:
    players = await seat(world, "casino", 3, ante=10)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, players[0], True)
    await world.manager.declare(GUILD, CHANNEL, players[1], True)
    await world.manager.declare(GUILD, CHANNEL, players[2], False)
    assert (await world.storage.players.balance(GUILD, players[0])) == STARTING - 20
    await arrange_all(world, players)
    event = await check_end(world, players)
    # RULINGS §3: folding loses the ante and an equal match.
    assert event.nets[players[2]] == -20
    assert len(event.dealer_hands) == 3 and len(event.dealer_labels) == 3
    assert event.house == -sum(event.nets.values())
    # The dealer's points per hand are what the players who played on lost there.
    played = [s for s in event.seats if s.surrendered_at is None]
    assert event.dealer_per_hand == tuple(-sum(s.per_hand[i] for s in played) for i in range(3))


async def test_casino_everyone_folds(world: World) -> None:
    players = await seat(world, "casino", 1)
    await world.manager.start(GUILD, CHANNEL, HOST)
    await world.manager.declare(GUILD, CHANNEL, HOST, False)
    event = await check_end(world, players)
    assert event.nets == {HOST: -10} and event.house == 10


async def test_standard_surrender_pays_into_the_pot(world: World) -> None:
    players = await seat(world, "standard", 4)
    await world.manager.start(GUILD, CHANNEL, HOST)
    for user in players:
        await world.manager.declare(GUILD, CHANNEL, user, user != players[3])
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None
    assert all(len(table.seat_of(u).cards) == 17 for u in players[:3])
    await arrange_all(world, players)
    event = await check_end(world, players)
    assert event.nets[players[3]] == -30  # ante 20 and 10 more into the pot
    assert event.pot == 4 * 20 + 10


async def test_no_surrender_moves_chips_by_points_only(world: World) -> None:
    players = await seat(world, "no-surrender", 2)
    events = await world.manager.start(GUILD, CHANNEL, HOST)
    # No ante: only each player's cover is held (20 a opponent), and it all comes back.
    assert isinstance(events[0], GameStarted) and events[0].escrowed == {u: 20 for u in players}
    await arrange_all(world, players)
    event = await check_end(world, players)
    assert event.pot == 0 and event.nets[players[0]] == -event.nets[players[1]]
    assert event.nets[players[0]] == event.matrix[0][1]


async def test_three_card_three_wagers_against_the_dealer(world: World) -> None:
    players = await seat(world, "three-card", 2, ante=5)
    events = await world.manager.start(GUILD, CHANNEL, HOST)
    assert isinstance(events[0], GameStarted)
    assert events[0].escrowed == {user: 15 for user in players}
    await arrange_all(world, players)
    event = await check_end(world, players)
    assert all(len(seat.per_hand) == 3 for seat in event.seats)
    assert all(seat.net == sum(seat.per_hand) for seat in event.seats)
    assert len(event.dealer_hands) == 2


async def test_pai_gow_foul_is_refused_and_changes_nothing(world: World) -> None:
    players = await seat(world, "paigow", 2)
    await world.manager.start(GUILD, CHANNEL, HOST)
    held = world.publisher.held(HOST)
    ordered = sorted(held, key=lambda card: card.code, reverse=True)
    # The two best cards low and the five worst high fouls unless the five make a hand.
    text = " ".join(c.pretty for c in ordered[:2]) + " | " + " ".join(c.pretty for c in ordered[2:])
    before = await world.manager.table(GUILD, CHANNEL)
    try:
        await submit_text(world.manager, GUILD, CHANNEL, HOST, text)
    except GameError as error:
        assert "foul" in str(error)
        assert await world.manager.table(GUILD, CHANNEL) == before
    await arrange_all(world, players)
    await check_end(world, players)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("count", [2, 6])
async def test_every_game_plays_to_the_end(world: World, game: str, count: int) -> None:
    players = await seat(world, game, count)
    await world.manager.start(GUILD, CHANNEL, HOST)
    while (table := await world.manager.table(GUILD, CHANNEL)) is not None and table.in_game:
        if table.phase is Phase.DECLARING:
            for user in table.waiting_for():
                await world.manager.declare(GUILD, CHANNEL, user, True)
        else:
            await arrange_all(world, players)
    await check_end(world, players)


async def test_second_game_at_the_same_table_passes_the_button(world: World) -> None:
    players = await seat(world, "no-surrender", 2)
    for _ in range(2):
        await world.manager.start(GUILD, CHANNEL, HOST)
        await arrange_all(world, players)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.games_played == 2 and table.button == 0
    assert len(world.publisher.of(ShowdownSettled)) == 2
    await world.check_ledger()
