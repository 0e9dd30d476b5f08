"""Computer players at a table: seated by the host, playing with the house's chips, on time."""

from __future__ import annotations

import logging

import pytest

from engine.cards import parse_cards
from engine.errors import GameError
from storage.audit import audit
from tables.computers import computer_declares
from tables.config import make_config
from tables.defaults import TableDefaults
from tables.events import PlayerJoined, PlayerKicked
from tables.games import GAMES
from tables.phase import Phase
from tables.runtime import Priority
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    HOST,
    OTHER_CHANNEL,
    PLAYERS,
    GatedOffload,
    World,
    play_against_computers,
    refused_with,
)


@pytest.mark.slow  # five computers' 25-card holdings: the quick lane has the Casino's
async def test_one_person_and_five_computers_of_mixed_levels_play_showdown(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    for level in ("casual", "steady", "strong", "casual", "strong"):
        await world.manager.add_computer(GUILD, CHANNEL, HOST, level)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and len(table.seats) == 6
    assert [s.computer for s in table.seats] == [
        None,
        "casual",
        "steady",
        "strong",
        "casual",
        "strong",
    ]
    await world.manager.start(GUILD, CHANNEL, HOST)
    showdown = await play_against_computers(world)
    assert {seat.computer for seat in showdown.seats} == {None, "casual", "steady", "strong"}
    computers = [s for s in showdown.seats if s.computer]
    assert all(s.set_by == "computer" or s.surrendered_at is not None for s in computers)
    # The house's chips played for the computers: the person's net is balanced by the house.
    balance = await world.storage.players.balance(GUILD, HOST)
    assert balance == 1_000 + showdown.nets[HOST]
    report = await audit(world.database, GUILD)
    assert report.is_consistent, report.problems
    assert report.house == -showdown.nets[HOST]
    # Computers never have a player's row: no chips, no leaderboard.
    for seat in computers:
        assert await world.storage.players.get(GUILD, seat.user) is None
    board = await world.storage.leaderboards.by_balance(GUILD)
    assert [standing.user_id for standing in board] == [HOST]


async def test_a_table_set_to_fill_seats_computers_at_the_start(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino", fill="strong", seats=4))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    events = await world.manager.start(GUILD, CHANNEL, HOST)
    joined = [e for e in events if isinstance(e, PlayerJoined)]
    assert len(joined) == 2
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and [s.computer for s in table.seats] == [
        None,
        None,
        "strong",
        "strong",
    ]


async def test_a_practice_table_moves_no_chip_and_records_nothing(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino", practice=True))
    await world.manager.add_computer(GUILD, CHANNEL, HOST, "strong")
    await world.manager.start(GUILD, CHANNEL, HOST)
    showdown = await play_against_computers(world)
    assert showdown.practice
    assert await world.storage.players.balance(GUILD, HOST) == 1_000
    rows = await world.database.fetchall("SELECT kind FROM ledger WHERE game_id IS NOT NULL")
    assert rows == []
    assert await world.storage.leaderboards.by_wins(GUILD) == []
    assert await world.storage.leaderboards.history(GUILD, HOST) == []


async def test_the_server_may_forbid_or_cap_computers(world: World) -> None:
    none = TableDefaults(computers_allowed=False)
    await world.storage.settings.set(GUILD, table_defaults=none.to_json())
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown", defaults=none))
    with refused_with("This server does not seat computers at its tables."):
        await world.manager.add_computer(GUILD, CHANNEL, HOST, "strong")
    with refused_with("This server does not seat computers at its tables."):
        make_config("showdown", fill="strong", defaults=none)
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    two = TableDefaults(computer_seats=2)
    await world.storage.settings.set(GUILD, table_defaults=two.to_json())
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown", defaults=two))
    for _ in range(2):
        await world.manager.add_computer(GUILD, CHANNEL, HOST, "casual")
    with refused_with("This table seats at most 2 computers."):
        await world.manager.add_computer(GUILD, CHANNEL, HOST, "casual")


async def test_only_the_host_seats_a_computer_and_computers_never_host(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    with refused_with("Only the table's host can seat a computer."):
        await world.manager.add_computer(GUILD, CHANNEL, PLAYERS[1], "strong")
    await world.manager.add_computer(GUILD, CHANNEL, HOST, "strong")
    await world.manager.leave(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.host == PLAYERS[1]
    await world.manager.leave(GUILD, CHANNEL, PLAYERS[1])
    assert await world.manager.table(GUILD, CHANNEL) is None  # a computer alone keeps no table


@pytest.mark.slow  # two strong computers deciding on 25 cards, twice
async def test_computers_think_in_the_pool_as_a_phase_opens_and_never_hold_up_a_person(
    world: World,
) -> None:
    gated = GatedOffload(world.manager.offload)
    world.manager.turns.offload = gated
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    for _ in range(2):
        await world.manager.add_computer(GUILD, CHANNEL, HOST, "strong")
    await world.manager.start(GUILD, CHANNEL, HOST)
    await gated.until_asked(2)
    # The declaration opened: both computers' decisions went to the pool at once, at the
    # deadline's priority (ahead of any Suggest), before any person acted.
    assert gated.asked == [("computer_declares", Priority.DEADLINE)] * 2
    # While they think, the people declare, unhindered.
    for person in (HOST, PLAYERS[1]):
        await world.manager.declare(GUILD, CHANNEL, person, True)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and set(table.waiting_for()) == {-1, -2}
    gated.gate.set()
    # Their declarations in, the first reveal came: Showdown opened its second declaration,
    # whose decisions the computers ask for at once.
    await gated.until_asked(2)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.round == 1 and table.phase is Phase.DECLARING


# ----- a computer belongs to its table: never in the seat rule, never DMed, never a traceback --

THIRD_CHANNEL = 3005


async def test_every_table_of_a_server_seats_computers_of_its_own(world: World) -> None:
    hosts = (HOST, PLAYERS[1], PLAYERS[2])
    await world.manager.create(GUILD, CHANNEL, hosts[0], make_config("showdown"))
    await world.manager.add_computer(GUILD, CHANNEL, hosts[0], "strong")
    # A second host's Add computer, a table set to fill and a practice table, side by side.
    await world.manager.create(GUILD, OTHER_CHANNEL, hosts[1], make_config("casino", seats=3))
    await world.manager.add_computer(GUILD, OTHER_CHANNEL, hosts[1], "casual")
    config = make_config("casino", fill="strong", seats=2)
    await world.manager.create(GUILD, THIRD_CHANNEL, hosts[2], config)
    await world.manager.start(GUILD, THIRD_CHANNEL, hosts[2])
    for channel, host in zip((CHANNEL, OTHER_CHANNEL, THIRD_CHANNEL), hosts, strict=True):
        table = await world.manager.table(GUILD, channel)
        assert table is not None and table.host == host
        assert [s.user for s in table.seats if s.computer] == [-1]
    # The seat rule holds people only: a computer sits nowhere on the server.
    assert await world.storage.snapshots.seat_of(GUILD, -1) is None
    assert await world.storage.snapshots.seat_of(GUILD, hosts[1]) == OTHER_CHANNEL


async def test_a_computers_turn_at_a_table_cancelled_meanwhile_ends_quietly(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    gated = GatedOffload(world.manager.offload)
    world.manager.turns.offload = gated
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
    await world.manager.add_computer(GUILD, CHANNEL, HOST, "strong")
    await world.manager.start(GUILD, CHANNEL, HOST)
    await gated.until_asked(1)
    assert gated.asked == [("computer_declares", Priority.DEADLINE)]
    await world.manager.cancel(GUILD, CHANNEL, HOST)
    gated.gate.set()  # the computer's decision comes back to a table that is gone
    await world.manager.turns.wait()
    assert await world.manager.table(GUILD, CHANNEL) is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a traceback was logged"


# ----- practice moves no chips: a broke player plays on ----------------------------------------


async def test_a_broke_player_may_play_on_at_a_practice_table(world: World) -> None:
    world.manager.turns.offload = GatedOffload(world.manager.offload)  # the computer waits
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino", practice=True, seats=2))
    await world.storage.players.take(GUILD, HOST, 1_000, admin_id=PLAYERS[5])
    await world.manager.start(GUILD, CHANNEL, HOST)
    # Was refused: "Playing on costs 10 chips and you have 0; surrender instead."
    await world.manager.declare(GUILD, CHANNEL, HOST, True)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.seat_of(HOST).choice is True
    assert await world.storage.players.balance(GUILD, HOST) == 0


# ----- the server's settings reach the lobbies already open; the host removes a computer -------


async def test_a_server_forbidding_computers_reaches_a_lobby_already_open(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.add_computer(GUILD, CHANNEL, HOST, "strong")
    forbid = TableDefaults(computers_allowed=False)
    await world.storage.settings.set(GUILD, table_defaults=forbid.to_json())
    with pytest.raises(GameError) as refused:
        await world.manager.add_computer(GUILD, CHANNEL, HOST, "strong")
    assert str(refused.value) == "This server does not seat computers at its tables."
    # The computer seated before cannot play either; removed, the people play on.
    with pytest.raises(GameError) as refused:
        await world.manager.start(GUILD, CHANNEL, HOST)
    assert str(refused.value) == (
        "This server does not seat computers at its tables; remove Computer 1 before you start."
    )
    await world.manager.kick(GUILD, CHANNEL, HOST, -1)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.players == (HOST, PLAYERS[1])
    assert not table.lobby().seats_a_computer
    await world.manager.start(GUILD, CHANNEL, HOST)


async def test_a_lowered_computer_cap_reaches_a_table_set_to_fill(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino", fill="steady"))
    await world.storage.settings.set(
        GUILD, table_defaults=TableDefaults(computer_seats=2).to_json()
    )
    await world.manager.start(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and [s.computer for s in table.seats] == [None, "steady", "steady"]


async def test_the_host_removes_a_computer_from_the_lobby(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    for level in ("casual", "strong"):
        await world.manager.add_computer(GUILD, CHANNEL, HOST, level)
    [kicked] = await world.manager.kick(GUILD, CHANNEL, HOST, -1)
    assert isinstance(kicked, PlayerKicked) and kicked.lobby is not None
    assert kicked.lobby.computers == ((-2, "strong"),)
    # The next computer takes the lowest number free at the table.
    await world.manager.add_computer(GUILD, CHANNEL, HOST, "steady")
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and [(s.user, s.computer) for s in table.seats] == [
        (HOST, None),
        (-2, "strong"),
        (-1, "steady"),
    ]
    with pytest.raises(GameError) as refused:
        await world.manager.kick(GUILD, CHANNEL, HOST, -4)
    assert str(refused.value) == "There is no Computer 4 at this table."


def test_a_standard_computer_counts_the_pot_it_may_take_before_it_surrenders() -> None:
    # Against two, these cards' points alone come to about -12.5 chips (96 completions set by
    # the solver), worse than the 10 a surrender puts in the pot; but playing on keeps a claim
    # on the pot of 60, which brings them to about -6: a computer plays them.
    held = parse_cards("8h Js 4s 4d Tc 7d 7s Js 9d Kd 3d Ac Kh")
    assert computer_declares(GAMES["standard"], 0, held, 2, 20)


def test_a_standard_computer_is_not_talked_out_of_good_cards_by_a_few_draws() -> None:
    # About +8.5 chips in points and +41 with the pot over 96 completions; three unlucky ones
    # (-10.4 chips in points) once made a computer surrender them.
    held = parse_cards("4s 3h 4s 6c Ac 3c 3h 9s 8s 8c 7h Js 4h")
    assert computer_declares(GAMES["standard"], 0, held, 2, 20)
