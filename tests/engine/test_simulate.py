"""The simulator: deterministic for a seed, whatever the workers; every wager reported."""

from __future__ import annotations

import io
import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest

from benchmarks.bench_simulate import main_bet_nets
from engine.cards import Card, card_from_code
from engine.cli import main
from engine.errors import GameError
from engine.evaluate import WheelMode
from engine.paigow import DECK_CODES, PaiGowVariant, Role, settle_codes
from engine.paigow_house_way import house_way_codes
from engine.simulate import GAMES, SimulationOptions, _wager_stats, simulate
from engine.simulate_house import (
    deal_pai_gow,
    deal_three_card,
    generator,
    pai_gow_results,
    three_card_results,
)
from engine.three_card import ThreeCardVariant, house_way, settle_round


def test_same_seed_replays_the_same_result() -> None:
    first = simulate("three-card", hands=300, seed=7, workers=1, chunk_hands=100)
    again = simulate("three-card", hands=300, seed=7, workers=1, chunk_hands=100)
    assert first == again


def test_result_does_not_depend_on_the_number_of_workers() -> None:
    alone = simulate("paigow", hands=240, seed=3, workers=1, chunk_hands=40)
    shared = simulate("paigow", hands=240, seed=3, workers=2, chunk_hands=40)
    assert alone == shared


def test_different_seeds_deal_different_hands() -> None:
    a = simulate("paigow", hands=200, seed=1, workers=1)
    b = simulate("paigow", hands=200, seed=2, workers=1)
    assert a.wagers != b.wagers


def test_three_card_game_reports_its_three_wagers() -> None:
    result = simulate("three-card", hands=200, seed=1, workers=1)
    assert [w.wager for w in result.wagers] == ["main", "three_card_bonus", "six_card_bonus"]
    for stats in result.wagers:
        assert stats.hands == 200
        assert math.isclose(stats.win + stats.push + stats.loss, 1.0)


def test_ev_and_standard_error_come_from_the_nets() -> None:
    stats = _wager_stats("bet", Counter({1.0: 3, -1.0: 1}), 4)
    assert stats.ev == 0.5
    assert math.isclose(stats.se, math.sqrt((3 * 0.25 + 2.25) / 3 / 4))
    assert (stats.win, stats.push, stats.loss) == (0.75, 0.0, 0.25)


def test_ties_to_dealer_is_a_three_card_option_only() -> None:
    simulate("three-card", hands=10, seed=1, workers=1, options=SimulationOptions(decks=8))
    with pytest.raises(GameError):
        simulate("paigow", hands=10, seed=1, options=SimulationOptions(ties_to_dealer=True))


@pytest.mark.parametrize("workers", [0, -1])
def test_fewer_than_one_worker_is_refused(workers: int) -> None:
    with pytest.raises(GameError, match="at least one worker"):
        simulate("paigow", hands=10, seed=1, workers=workers)


def test_unknown_variant_is_refused_with_the_known_ones() -> None:
    with pytest.raises(GameError, match="paigow"):
        simulate("baccarat", hands=10, seed=1)


def test_every_game_has_a_description_and_wagers() -> None:
    for game in GAMES.values():
        assert game.wagers
        assert game.describe(SimulationOptions())


def test_command_prints_clean_json() -> None:
    out = io.StringIO()
    argv = ["simulate", "--variant", "paigow", "--hands", "50", "--seed", "4", "--json"]
    status = main([*argv, "--workers", "1"], stdout=out)
    result = json.loads(out.getvalue())
    assert status == 0
    assert result["variant"] == "paigow" and result["hands"] == 50
    assert [w["wager"] for w in result["wagers"]] == ["bet"]


def test_command_prints_a_table_for_people() -> None:
    out = io.StringIO()
    argv = ["simulate", "--variant", "three-card", "--hands", "20", "--seed", "4"]
    assert main([*argv, "--ties-to-dealer", "--workers", "1"], stdout=out) == 0
    assert "six_card_bonus" in out.getvalue()
    assert "ties go to the dealer" in out.getvalue()


def test_command_refuses_an_option_the_variant_does_not_take() -> None:
    argv = ["simulate", "--variant", "paigow", "--hands", "20", "--seed", "4", "--decks", "6"]
    assert main(argv, stdout=io.StringIO()) == 2


def test_simulated_pai_gow_rounds_settle_as_the_bots_rules_do() -> None:
    # The million-round run is benchmarks/check_simulator.py; this is its CI sample.
    variant = PaiGowVariant()
    dealt = deal_pai_gow(generator(5, 0), 3_000)
    fast = pai_gow_results(variant.wheel, dealt).tolist()
    for row, result in zip(dealt.tolist(), fast, strict=True):
        player = house_way_codes(row[:7], Role.PLAYER, variant.keys)
        banker = house_way_codes(row[7:], Role.BANKER, variant.keys)
        assert settle_codes(player, banker, variant.keys) == result, row


@pytest.mark.parametrize("ties_to_dealer", [False, True])
def test_simulated_three_card_rounds_settle_as_the_bots_rules_do(ties_to_dealer: bool) -> None:
    variant = ThreeCardVariant(ties_to_dealer=ties_to_dealer)
    dealt = deal_three_card(generator(6, 0), 3_000, variant.decks)
    fast = three_card_results(variant, dealt).tolist()
    for row, nets in zip(dealt.tolist(), fast, strict=True):
        cards = [card for card in map(card_from_code, row) if isinstance(card, Card)]
        result = settle_round(house_way(cards[:3], variant), house_way(cards[3:], variant), variant)
        expected = [result.main.net, result.three_card_bonus.net, result.six_card_bonus.net]
        assert [float(net) for net in expected] == nets, row


def test_simulated_three_card_rounds_with_five_of_a_suit_settle_as_the_bots_rules_do() -> None:
    # Dealt from few ranks and mostly one suit: the 6-card bonus's flushes, straight flushes,
    # five and six of a kind, and trips, which come seldom from a full shoe.
    variant = ThreeCardVariant()
    rng = np.random.default_rng(7)
    ranks = rng.choice(np.array([2, 3, 4, 5, 10, 11, 12, 13, 14]), (3_000, 6))
    ranks[:500] = rng.choice(np.array([13, 14]), (500, 6))
    suits = rng.choice(np.array([3, 3, 3, 3, 2, 0]), (3_000, 6))
    dealt = ranks * 4 + suits
    fast = three_card_results(variant, dealt).tolist()
    for row, nets in zip(dealt.tolist(), fast, strict=True):
        cards = [card for card in map(card_from_code, row) if isinstance(card, Card)]
        result = settle_round(house_way(cards[:3], variant), house_way(cards[3:], variant), variant)
        expected = [result.main.net, result.three_card_bonus.net, result.six_card_bonus.net]
        assert [float(net) for net in expected] == nets, row


#: What the simulator counted for these runs before its arrays (at 59060c0, a class of hands
#: at a time through the bot's rules): the same seed counts the same rounds.
BEFORE_THE_ARRAYS = {
    ("paigow", SimulationOptions()): {"bet": {-1.0: 8904, 0.0: 12427, 0.95: 8669}},
    ("paigow", SimulationOptions(wheel=WheelMode.LOW)): {
        "bet": {-1.0: 8909, 0.0: 12421, 0.95: 8670}
    },
    ("three-card", SimulationOptions()): {
        "main": {-1.0: 10685, 0.0: 8646, 1.0: 10506, 3.0: 163},
        "three_card_bonus": {
            -1.0: 19934, 0.0: 1273, 1.0: 5873, 2.0: 1754, 5.0: 936, 20.0: 163, 30.0: 65, 50.0: 2
        },
        "six_card_bonus": {
            -1.0: 21666, 1.0: 4769, 2.0: 1936, 5.0: 464, 6.0: 464, 7.0: 562, 10.0: 135, 50.0: 1,
            75.0: 3,
        },
    },
    ("three-card", SimulationOptions(ties_to_dealer=True, decks=8)): {
        "main": {-1.0: 10840, 0.0: 9829, 1.0: 9176, 3.0: 155},
        "three_card_bonus": {
            -1.0: 19979, 0.0: 1188, 1.0: 5832, 2.0: 1823, 5.0: 961, 20.0: 155, 30.0: 57, 50.0: 5
        },
        "six_card_bonus": {
            -1.0: 21752, 1.0: 4689, 2.0: 1922, 5.0: 424, 6.0: 442, 7.0: 609, 10.0: 155, 50.0: 3,
            75.0: 4,
        },
    },
}  # fmt: skip


@pytest.mark.parametrize(("variant", "options"), list(BEFORE_THE_ARRAYS))
def test_a_seeded_run_counts_the_rounds_it_counted_before_the_arrays(
    variant: str, options: SimulationOptions
) -> None:
    # The house edges are unchanged: not only within their errors, the very same rounds.
    result = simulate(variant, hands=30_000, seed=2026, workers=1, options=options)
    counted = {stats.wager: dict(stats.nets) for stats in result.wagers}
    assert counted == BEFORE_THE_ARRAYS[(variant, options)]


def test_a_deal_is_distinct_cards_of_the_shoe() -> None:
    pai_gow = deal_pai_gow(generator(1, 0), 500).tolist()
    assert all(len(set(row)) == 14 and set(row) <= set(DECK_CODES) for row in pai_gow)
    three = deal_three_card(generator(1, 0), 500, 6).tolist()
    assert all(8 <= code < 60 for row in three for code in row)


def _settled(variant: ThreeCardVariant, row: list[int]) -> list[float]:
    """The bot's three wagers on one round of six card codes."""
    cards = [card for card in map(card_from_code, row) if isinstance(card, Card)]
    result = settle_round(house_way(cards[:3], variant), house_way(cards[3:], variant), variant)
    nets = (result.main.net, result.three_card_bonus.net, result.six_card_bonus.net)
    return [float(net) for net in nets]


def test_every_three_ranks_suited_or_not_pay_the_three_card_bonus_as_the_bots_rules_do() -> None:
    variant = ThreeCardVariant()
    triples = list(itertools.combinations_with_replacement(range(2, 15), 3))
    # Suited: all spades (six decks hold a rank's spade six times); not: spades, hearts, clubs.
    rows = [[a * 4 + 3, b * 4 + 3, c * 4 + 3, 8, 21, 34] for a, b, c in triples]
    rows += [[a * 4 + 3, b * 4 + 2, c * 4, 8, 21, 34] for a, b, c in triples]
    fast = three_card_results(variant, np.array(rows)).tolist()
    assert [nets[1] for nets in fast] == [_settled(variant, row)[1] for row in rows]


@pytest.mark.slow  # 207,025 rounds through the bot's rules: exhaustive, some 5 s
def test_every_pair_of_three_ranks_settles_as_the_bots_rules_do() -> None:
    # Every player's and dealer's ranks: the main bet and, with no five of a suit, the 6-card
    # bonus (the pair tables built from the 455 house ways) against the bot's settlement.
    variant = ThreeCardVariant()
    triples = list(itertools.combinations_with_replacement(range(2, 15), 3))
    rows = [
        [r * 4 + suit for r, suit in zip((*player, *dealer), (3, 2, 1, 0, 3, 2), strict=True)]
        for player in triples
        for dealer in triples
    ]
    fast = three_card_results(variant, np.array(rows)).tolist()
    for row, nets in zip(rows, fast, strict=True):
        assert nets == _settled(variant, row), row


def test_the_benchmarks_numpy_main_bet_settles_as_the_simulator_does() -> None:
    # The reference the simulator's speed is measured against plays the same game.
    dealt = deal_three_card(generator(9, 0), 20_000, 6)
    simulated = three_card_results(ThreeCardVariant(), dealt)[:, 0]
    assert main_bet_nets(dealt).tolist() == simulated.tolist()
