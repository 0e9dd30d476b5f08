"""Every sentence that names a cost says what the settlement moves: the DM of each declaration,
checked against the table's own settlement in every game, seat count and declaration."""

from __future__ import annotations

import re

import pytest

from cogs.coach import surrender_text
from cogs.declare import declaration_text
from cogs.lobby import lobby_text, stakes_words
from engine.settlement import POT, Transfer, balances
from engine.stakes import declaration_stakes
from engine.variants import CASINO, SHOWDOWN, STANDARD
from tables.config import make_config
from tables.events import DeclarationsOpened
from tables.games import GAMES, rules_of
from tables.phase import Phase
from tables.review import Review
from tables.rules.pyramid_review import surrender_of
from tables.settle import settle_table
from tables.table import Table
from tests.cogs.helpers import Scene, open_table, play_out, the_table
from tests.helpers import rules_section
from tests.tables.helpers import quick_arranger


def surrender_clause(dm: str) -> str:
    """The part of a declaration's DM that says what surrendering costs."""
    start = dm.index("**Surrender**")
    return dm[start:].split("\n")[0]


async def test_the_surrender_dm_names_what_a_four_seat_showdown_surrender_costs(
    scene: Scene,
) -> None:
    players = await open_table(scene, "showdown", 4)
    ann, *others = players
    storage = scene.bot.services.storage
    before = await storage.players.balance(scene.guild.id, ann.id)
    await ann.slash(scene.channel, "table start")
    told = surrender_clause(ann.user.dm_channel.last_message.content)
    assert (await ann.user.click(ann.user.dm_channel.last_message, label="Surrender")).acknowledged
    while (table := await the_table(scene)) is not None and table.phase is Phase.DECLARING:
        for member in others:
            if member.id in table.waiting_for():
                await member.user.click(member.user.dm_channel.last_message, label="Play")
    await play_out(scene, others, "text")
    lost = before - await storage.players.balance(scene.guild.id, ann.id)
    # It said "Surrender costs 5." and the surrender paid 5 to each of three players who played
    # on, beside the ante left in the pot: 25 in all.
    assert lost == 25
    assert told == (
        "**Surrender** pays 5 chips to each other player who plays on, 15 if all 3 do, and your "
        "10 in the pot stay there: 25 in all. If everyone surrenders, nobody pays and the pot is "
        "shared."
    )


FIRST = 1001


def declaring(game: str, seats: int, round_: int, *, seed: int = 5) -> Table:
    """A started table of ``seats`` players at declaration ``round_``, everyone having played on
    at the declarations before it."""
    spec = GAMES[game]
    users = [FIRST + index for index in range(seats)]
    table = Table.open(0, 0, users[0], make_config(game, seats=max(seats, 1)))
    for user in users[1:]:
        table.join(user)
    table.start(users[0], game_id=1, seed=seed, now=0.0)
    assert spec.declarations > round_
    while table.round < round_:
        for user in table.waiting_for():
            table.declare(user, True)
        table.reveal(0.0)
    assert table.phase is Phase.DECLARING and table.round == round_
    return table


def opened(table: Table) -> DeclarationsOpened:
    """The event that opened the table's declaration, as its DM shows it."""
    return DeclarationsOpened(
        table.round,
        tuple(s.user for s in table.active),
        0.0,
        table.declaration_stakes(),
        table.spec.variant_at(table.config.ante).declarations[table.round].draw,
        1,
        table.config.game,
    )


def played_out(table: Table, surrendering: set[int]) -> tuple[Transfer, ...]:
    """The table's settlement when ``surrendering`` surrender now and everyone else plays on
    to the end, each setting legal hands."""
    finish(table, surrendering)
    return rules_of(table.spec).play(table.finished()).transfers


def finish(table: Table, surrendering: set[int]) -> None:
    """``surrendering`` surrender now and everyone else plays on to the end, setting hands."""
    for user in table.waiting_for():
        table.declare(user, user not in surrendering)
    table.reveal(0.0)
    while table.phase is Phase.DECLARING:
        for user in table.waiting_for():
            table.declare(user, True)
        table.reveal(0.0)
    if table.phase is Phase.ARRANGING:
        for seat in table.active:
            table.place(seat.user, quick_arranger(table.spec, seat.held), by="solver")


def stake_paid(transfers: tuple[Transfer, ...], round_: int) -> set[int]:
    return {t.amount for t in transfers if t.reason == f"stake {round_ + 1}"}


def cases() -> list[tuple[str, int, int]]:
    return [
        (game, seats, round_)
        for game, spec in GAMES.items()
        for seats in range(spec.min_players, spec.max_players + 1)
        for round_ in range(spec.declarations)
    ]


def chips(count: int, more: str = "") -> str:
    """A number of chips as a sentence says it."""
    return f"{count} {more}chip" if count == 1 else f"{count} {more}chips"


@pytest.mark.parametrize(("game", "seats", "round_"), cases())
def test_every_declaration_dm_names_what_the_settlement_moves(
    game: str, seats: int, round_: int
) -> None:
    table = declaring(game, seats, round_)
    event = opened(table)
    text = declaration_text(event)
    heading, cards = f"Declaration {round_ + 1}", f"{event.draw} more cards"
    others = seats - 1
    everyone = played_out(declaring(game, seats, round_), set())
    # What surrendering moves when every other player plays on, as the settlement moves it.
    alone = played_out(declaring(game, seats, round_), {FIRST})
    total = -balances(alone)[FIRST]
    if game == "casino":
        [buy_in] = set(table.reveal_stakes().values())  # what playing on puts up
        assert {t.amount for t in everyone if t.reason == "buy-in"} <= {buy_in}
        ante = table.config.ante
        assert text == (
            f"{heading}: **Play** puts up a buy-in of {chips(buy_in)} and brings {cards}. "
            f"**Surrender** folds: you lose your {ante}-chip ante and {total - ante} more to the "
            f"dealer, {total} in all."
        )
        return
    mine = [t for t in alone if t.payer == FIRST and t.reason.startswith("surrender")]
    most = sum(t.amount for t in mine)
    put_in = total - most
    if game == "showdown":
        [play] = stake_paid(everyone, round_)
        [each] = {t.amount for t in mine}
        play_clause = f"**Play** puts {chips(play, 'more ')} into the pot and brings {cards}."
        pays = (
            f"pays {chips(each)} to the other player if they play on"
            if others == 1
            else f"pays {chips(each)} to each other player who plays on, {most} if all {others} do"
        )
    else:
        assert stake_paid(everyone, round_) == set()
        each = None
        play_clause = f"**Play** brings {cards} at no further cost."
        pays = f"puts {chips(most, 'more ')} into the pot"
    assert text == (
        f"{heading}: {play_clause} **Surrender** {pays}, and your {put_in} in the pot stay there: "
        f"{total} in all. If everyone surrenders, nobody pays and the pot is shared."
    )
    # What the surrender moves when k of the others play on, the rest surrendering with it.
    for staying in range(others + 1):
        quitting = {FIRST + index for index in range(staying + 1, seats)} | {FIRST}
        moved = played_out(declaring(game, seats, round_), quitting)
        mine = [t for t in moved if t.payer == FIRST and t.reason.startswith("surrender")]
        if staying == 0:
            # Nobody pays anybody and the pot is shared among them all.
            assert not [t for t in moved if t.reason.startswith("surrender")], text
            assert {t.payee for t in moved if t.payer == POT} == set(range(FIRST, FIRST + seats))
            continue
        if each is None:  # into the pot, whoever plays on
            assert [(t.payee, t.amount) for t in mine] == [(POT, most)], text
        else:  # to each player who plays on
            assert sorted((t.payee, t.amount) for t in mine) == [
                (FIRST + index, each) for index in range(1, staying + 1)
            ], text
        paid = sum(t.amount for t in mine)
        assert balances(moved)[FIRST] == -(put_in + paid), text


@pytest.mark.parametrize(("game", "seats", "round_"), cases())
def test_a_reviews_surrender_names_what_the_settlement_moved(
    game: str, seats: int, round_: int
) -> None:
    users = range(FIRST, FIRST + seats)
    for staying in range(seats):
        table = declaring(game, seats, round_)
        finish(table, {FIRST} | {FIRST + index for index in range(staying + 1, seats)})
        result = settle_table(table, dict.fromkeys(users, 1_000_000))
        event = result.event
        variant = table.spec.variant_at(table.config.ante)
        cost = surrender_of(variant, event.seats, FIRST, round_)
        text = str(
            surrender_text(
                Review(1, game, FIRST, None, None, surrendered_at=round_, surrender=cost)
            )
        )
        net = next(seat.net for seat in event.seats if seat.user == FIRST)
        at = f"declaration {round_ + 1}"
        if staying == 0 and game != "casino":
            assert text == (
                f"You surrendered at {at}, as everyone did: nobody paid, and the pot was shared."
            )
            share = sum(t.amount for t in result.transfers if (t.payer, t.payee) == (POT, FIRST))
            assert (cost.paid, net) == (0, -cost.put_in + share), text
            continue
        assert cost is not None and net == -cost.total == -(cost.paid + cost.put_in), text
        if game == "casino":
            assert text == (
                f"You folded at {at}: you lost your {cost.put_in}-chip ante and {cost.paid} more "
                f"to the dealer, {cost.total} in all."
            )
            continue
        paid = (
            f"you paid {cost.paid} chips to those who played on"
            if game == "showdown"
            else f"you put {cost.paid} more chips into the pot"
        )
        assert text == (
            f"You surrendered at {at}: {paid}, and your {cost.put_in} in the pot stayed there: "
            f"{cost.total} in all."
        )
    # A player who played on: what surrendering at the last declaration would have moved, the
    # others declaring as they did, is what it moves when they do surrender there.
    if round_ == GAMES[game].declarations - 1 and game != "casino":
        table = declaring(game, seats, round_)
        finish(table, set())
        event = settle_table(table, dict.fromkeys(users, 1_000_000)).event
        variant = table.spec.variant_at(table.config.ante)
        would = surrender_of(variant, event.seats, FIRST, round_)
        table = declaring(game, seats, round_)
        finish(table, {FIRST})
        moved = settle_table(table, dict.fromkeys(users, 1_000_000)).event
        assert -next(s.net for s in moved.seats if s.user == FIRST) == would.total


@pytest.mark.parametrize("game", [name for name, spec in GAMES.items() if spec.default_ante])
def test_the_lobby_names_the_chips_each_player_puts_up_at_the_start(game: str) -> None:
    # The three-card game's lobby said "ante 5" and each player put up three wagers, 15 chips.
    table = Table.open(0, 0, FIRST, make_config(game, ante=7, seats=2))
    table.join(FIRST + 1)
    put_up = table.start_stakes()
    assert set(put_up.values()) == {7 * GAMES[game].wagers}
    spec = GAMES[game]
    words = f"{spec.wagers} wagers of 7 ({put_up[FIRST]} chips a player)"
    if spec.wagers == 1:
        words = f"ante {put_up[FIRST]}"
    assert lobby_text(table.lobby()).split("\n")[0] == (
        f"**{spec.title}** table, {words}, 2/2 seats (host <@{FIRST}>)."
    )
    assert str(stakes_words(table.spec, table.config.ante)) == words  # as /table status says it


def test_the_rules_say_what_a_surrender_costs_as_the_settlement_moves_it() -> None:
    rules = rules_section("showdown")
    row = r"^\| (\d) \| (\d+) \+ (\d+) = (\d+) \| (\d+) \+ (\d+) = (\d+) \|$"
    rows = re.findall(row, rules, re.M)
    assert [int(row[0]) for row in rows] == list(range(2, 7))
    for players, *figures in rows:
        for round_, (paid, put_in, total) in enumerate((figures[:3], figures[3:])):
            cost = declaration_stakes(SHOWDOWN, round_, players=int(players)).surrender
            assert (cost.paid, cost.put_in, cost.total) == (int(paid), int(put_in), int(total))
    standard = declaration_stakes(STANDARD, 0, players=4).surrender
    assert f"costs **{standard.total} in all**" in rules_section("standard")
    casino = declaration_stakes(CASINO, 0, players=1, ante=5).surrender
    casino_rules = " ".join(rules_section("casino").split())
    assert f"ante: {casino.total} chips with a {casino.put_in}-chip ante" in casino_rules
