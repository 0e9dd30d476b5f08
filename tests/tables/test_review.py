"""The coach: a finished game's record sets the player's cards again, beside what they played.

Each review is checked against the showdown itself: the player's own setting, scored again
from the record, must score what the table scored it; the best way must be worth at least as
much as the player's by the same measure; and only a player of the game, on its server, gets one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine.stakes import surrender_cost
from engine.variants import Variant
from tables.coach import review_game, review_record, spec_of
from tables.config import make_config
from tables.events import SeatResult, ShowdownSettled
from tables.record import record_from_json
from tables.review import Review
from tables.setting import Setting
from tables.table import Table
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    HOST,
    OTHER_GUILD,
    PLAYERS,
    STRANGER,
    World,
    play_against_computers,
    quick_arranger,
    refused_with,
)


async def quick(world: World, table: Table, user: int) -> Setting:
    """The test's quick hands (legal, not the best)."""
    return quick_arranger(table.spec, table.seat_of(user).held)


async def play(world: World, *, surrender: bool = False) -> ShowdownSettled:
    """The host plays (or surrenders at the first declaration) and sets the test's quick hands;
    the computers play their own turns."""
    return await play_against_computers(world, plays_on=not surrender, sets=quick)


def seat_of(event: ShowdownSettled, user: int) -> SeatResult:
    return next(seat for seat in event.seats if seat.user == user)


async def review(world: World, game_id: int | None, user: int = HOST) -> Review:
    return await review_game(world.storage, world.manager.offload, GUILD, user, game_id)


async def open_with_computers(world: World, game: str, *levels: str) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config(game))
    for level in levels:
        await world.manager.add_computer(GUILD, CHANNEL, HOST, level)
    await world.manager.start(GUILD, CHANNEL, HOST)


# A Showdown played against a strong computer, then the best of 25 cards sought: the quick lane
# reviews the Casino's, the house games' and Standard's.
@pytest.mark.slow
async def test_a_showdown_review_scores_the_players_hands_as_the_table_did(world: World) -> None:
    await open_with_computers(world, "showdown", "casual", "strong")
    event = await play(world)
    mine = seat_of(event, HOST)
    found = await review(world, event.game_id)
    assert found.yours is not None and found.best is not None
    assert found.yours.hands == mine.hands
    # Scored again from the record, the player's own hands score what the showdown showed.
    assert found.yours.per_hand == mine.per_hand
    assert found.yours.labels == tuple(str(label) for label in mine.labels)
    # The best way is the solver's, worth at least the player's by the field model.
    assert found.best.expected >= found.yours.expected
    # Both set the cards the player held (the record's holding, discards included).
    game = await world.storage.games.get(event.game_id)
    assert game is not None and game.result is not None
    held = Counter(c.code for c in record_from_json(game.result, event.game_id).holdings[HOST])
    for way in (found.yours, found.best):
        assert not Counter(c.code for hand in way.hands for c in hand) - held
    # Every hand that differs is named, and no other.
    for difference in found.differences:
        i = difference.position
        assert (
            found.yours.per_hand[i] != found.best.per_hand[i]
            or found.yours.hands[i] != found.best.hands[i]
        )
    if found.same:
        assert found.differences == ()
    # Showdown's last declaration costs 10 to each opponent who played on there (the
    # settlement's figure), beside the ante and the first stake in the pot.
    playing = [s for s in event.seats if s.user != HOST and s.surrendered_at is None]
    assert found.surrender is not None
    assert (found.surrender.paid, found.surrender.put_in) == (10 * len(playing), 20)
    assert found.fold_better is (found.best.expected < -20)


@pytest.mark.slow  # a Showdown against a strong computer, as above
async def test_when_every_other_player_surrendered_first_the_review_weighs_that_declaration(
    world: World,
) -> None:
    """The second declaration never came when the others all surrendered at the first: the
    review weighs surrendering where the player last declared, beside those who surrendered
    there (it once asked the stakes of a declaration with the player alone, and failed)."""
    await open_with_computers(world, "showdown", "casual", "strong")
    event = await play(world)
    game = await world.storage.games.get(event.game_id)
    assert game is not None and game.result is not None
    record = record_from_json(game.result, event.game_id)
    seats = tuple(
        seat if seat.user == HOST else replace(seat, surrendered_at=0) for seat in event.seats
    )
    alone = replace(record, showdown=replace(record.showdown, seats=seats))
    found = review_record(alone, event.game_id, HOST)
    variant = spec_of(record).numbers
    assert isinstance(variant, Variant)
    assert found.surrender == surrender_cost(variant, 0, players=3, staying=0)


async def test_a_casino_review_scores_against_the_dealers_hands(world: World) -> None:
    await open_with_computers(world, "casino")
    event = await play(world)
    found = await review(world, None)  # the latest game
    assert found.game_id == event.game_id
    assert found.yours is not None and found.best is not None and found.dealer is not None
    assert found.yours.per_hand == seat_of(event, HOST).per_hand
    # Against the dealer the points' chips are the payout: what the table paid the player.
    assert found.yours.at_table == seat_of(event, HOST).net
    assert found.dealer.hands == event.dealer_hands
    assert found.best.expected >= found.yours.expected
    # Alone against the dealer, the player still declared: folding there is weighed.
    game = await world.storage.games.get(event.game_id)
    assert game is not None and game.result is not None
    variant = spec_of(record_from_json(game.result, event.game_id)).numbers
    assert isinstance(variant, Variant)
    last = len(variant.declarations) - 1
    assert found.surrender == surrender_cost(variant, last, players=1, staying=0)


@pytest.mark.parametrize("game", ["three-card", "paigow"])
async def test_a_house_game_review_tries_every_setting_against_the_dealer(
    world: World, game: str
) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config(game))
    await world.manager.start(GUILD, CHANNEL, HOST)
    event = await play(world)
    mine = seat_of(event, HOST)
    found = await review(world, event.game_id)
    assert found.yours is not None and found.best is not None
    # The player's wagers, settled again against the dealer's hand, are what the table paid.
    assert found.yours.wagers == mine.wagers
    assert found.yours.at_table == mine.net
    assert found.best.expected >= found.yours.expected
    assert found.dealer is not None and found.dealer.hands == event.dealer_hands
    for difference in found.differences:
        assert difference.yours_points != difference.best_points


async def test_a_surrender_is_weighed_against_playing_on(world: World) -> None:
    await open_with_computers(world, "standard", "strong", "strong")
    event = await play(world, surrender=True)
    assert seat_of(event, HOST).surrendered_at == 0
    found = await review(world, event.game_id)
    assert found.yours is None and found.surrendered_at == 0
    assert found.surrender_cost == 10  # Standard's surrender: 10 into the pot
    # What it cost in all is what the settlement took from the player.
    assert found.surrender is not None and found.surrender.total == -seat_of(event, HOST).net
    assert found.playing_on is not None
    assert found.best is not None  # the best setting of the 13 cards held then
    assert len([card for hand in found.best.hands for card in hand]) <= 13


async def test_only_a_player_of_the_game_on_its_server_gets_a_review(world: World) -> None:
    await open_with_computers(world, "casino", "casual")
    event = await play(world)
    with refused_with(f"You did not play in game {event.game_id}."):
        await review(world, event.game_id, user=STRANGER)
    with refused_with(f"There is no game {event.game_id} on this server."):
        await review_game(world.storage, world.manager.offload, OTHER_GUILD, HOST, event.game_id)
    with refused_with("There is no game 999 on this server."):
        await review(world, 999)
    with refused_with("You have no finished game here to review yet."):
        await review(world, None, user=PLAYERS[2])


async def test_an_unfinished_game_has_no_review_yet(world: World) -> None:
    await open_with_computers(world, "showdown", "casual")
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.game_id is not None
    with refused_with(f"Game {table.game_id} has not finished; review it after its showdown."):
        await review(world, table.game_id)


async def test_a_review_is_made_once_per_game_and_player_and_shown_the_same(world: World) -> None:
    from typing import Any

    from tables.coach import Reviews

    await open_with_computers(world, "casino", "casual")
    event = await play(world)
    made: list[Any] = []

    async def counted(work: Any, /, *args: Any, **kwargs: Any) -> Any:
        made.append(args)
        return await world.manager.offload(work, *args, **kwargs)

    reviews = Reviews(world.storage, counted, world.clock)
    first = await reviews.review(GUILD, HOST, event.game_id)
    assert first == await review(world, event.game_id)  # the cache changes nothing shown
    assert await reviews.review(GUILD, HOST, None) == first  # the latest: the same game
    assert await reviews.review(GUILD, HOST, event.game_id) == first
    assert len(made) == 1  # one review of the game by the workers, not three
    with refused_with(f"You did not play in game {event.game_id}."):
        await reviews.review(GUILD, STRANGER, event.game_id)
