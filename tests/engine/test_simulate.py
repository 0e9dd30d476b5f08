"""The simulator: deterministic for a seed, whatever the workers; every wager reported."""

from __future__ import annotations

import io
import json
import math
from collections import Counter

import pytest

from engine.cards import Card, card_from_code
from engine.cli import main
from engine.errors import GameError
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


def test_a_deal_is_distinct_cards_of_the_shoe() -> None:
    pai_gow = deal_pai_gow(generator(1, 0), 500).tolist()
    assert all(len(set(row)) == 14 and set(row) <= set(DECK_CODES) for row in pai_gow)
    three = deal_three_card(generator(1, 0), 500, 6).tolist()
    assert all(8 <= code < 60 for row in three for code in row)
