"""The cogs' pictures: what they hand the render functions, from cards and events."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

import cogs.pictures
import engine.evaluate
import render.cards
from cogs.pictures import (
    hand_picture,
    hand_rules,
    held_sizes,
    phase_subtitle,
    setting_picture,
    showdown_picture,
    slot_names,
    warm_up_pictures,
)
from cogs.samples import NAMES, SampleGame, play_sample
from engine.cards import JOKER, AnyCard, Card, Rank, Shoe, Suit, format_cards, parse_cards
from engine.evaluate import PAI_GOW_RULES, evaluate, evaluator
from render import PlayedJoker, ShowdownRow
from tables.events import ArrangingOpened, DeclarationsOpened, SeatResult, ShowdownSettled
from tables.games import GAMES


@pytest.fixture
def hand_png_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """What ``hand_picture`` hands the renderer (a picture is still drawn)."""
    calls: list[tuple[Any, dict[str, Any]]] = []
    original = cogs.pictures.hand_png

    def spy(cards: Any, **kwargs: Any) -> bytes:
        calls.append((cards, kwargs))
        return original(cards, **kwargs)

    monkeypatch.setattr(cogs.pictures, "hand_png", spy)
    return calls


def test_a_hand_picture_draws_the_cards_by_rank_jokers_first(
    hand_png_calls: list[tuple[Any, dict[str, Any]]],
) -> None:
    data = hand_picture(parse_cards("3c As W Kh Ad"), subtitle="Showdown Version · declaration 1")
    assert data.startswith(b"\x89PNG")
    (cards, options), *_ = hand_png_calls
    assert format_cards(cards) == "W As Ad Kh 3c"
    assert {key: str(value) for key, value in options.items()} == {
        "title": "Your cards",
        "subtitle": "Showdown Version · declaration 1",
        "locale": "en-US",
    }


def test_a_hand_picture_can_group_the_cards_by_suit(
    hand_png_calls: list[tuple[Any, dict[str, Any]]],
) -> None:
    hand_picture(parse_cards("3c As W Kh Ad 2s"), by="suit")
    assert format_cards(hand_png_calls[0][0]) == "W As 2s Kh Ad 3c"


def test_the_subtitle_names_the_declaration_or_the_setting_of_hands() -> None:
    declaring = DeclarationsOpened(1, (1, 2), 0.0, None, 2, 7, "showdown")
    assert phase_subtitle("Showdown Version", declaring) == "Showdown Version · declaration 2"
    arranging = ArrangingOpened((1, 2), 0.0, 7, "showdown")
    assert phase_subtitle("Pai Gow poker", arranging) == "Pai Gow poker · set your hands"


@pytest.mark.parametrize(
    ("game", "slots"),
    [
        ("showdown", ("Hand 1", "Hand 2", "Hand 3", "Hand 4", "Hand 5", "Hand 6")),
        ("casino", ("Hand 1", "Hand 2", "Hand 3")),
        ("standard", ("Front", "Middle", "Back")),
        ("no-surrender", ("Front", "Middle", "Back")),
        ("three-card", ("Low", "High")),
        ("paigow", ("Low", "High")),
    ],
)
def test_every_game_names_its_hands_by_their_slots(game: str, slots: tuple[str, ...]) -> None:
    assert slot_names(GAMES[game]) == slots


@pytest.fixture
def showdown_rows(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What ``showdown_picture`` hands the renderer: its rows and its other arguments."""
    calls: list[dict[str, Any]] = []
    original = cogs.pictures.showdown_png

    def spy(rows: Sequence[ShowdownRow], **kwargs: Any) -> bytes:
        calls.append({"rows": list(rows), **kwargs})
        return original(rows, **kwargs)

    monkeypatch.setattr(cogs.pictures, "showdown_png", spy)
    return calls


@pytest.fixture(scope="module")
def showdown_game() -> SampleGame:
    """A seeded six-player Showdown Version game (the docs' sample), played out."""
    return play_sample("showdown")


# Its game is the docs' sample: six 25-card holdings set by a search run to the end.
@pytest.mark.slow
def test_the_showdown_names_each_hand_by_its_slot_and_draws_it_as_it_plays(
    showdown_game: SampleGame, showdown_rows: list[dict[str, Any]]
) -> None:
    showdown_picture(showdown_game.showdown, showdown_game.names)
    rows = showdown_rows[0]["rows"]
    rules = GAMES["showdown"].variant.hand_rules  # type: ignore[union-attr]
    assert [row.name for row in rows] == list(NAMES)
    for row, seat in zip(rows, showdown_game.showdown.seats, strict=True):
        assert tuple(map(str, row.slots)) == slot_names(GAMES["showdown"])
        assert row.labels == seat.labels
        for drawn, hand in zip(row.hands, seat.hands, strict=True):
            value = evaluate(hand, rules)
            # Each card where it plays: what each drawn card stands for is the evaluation's order.
            assert [f.became if isinstance(f, PlayedJoker) else f for f in drawn] == list(
                value.resolved
            )
            assert [f.became for f in drawn if isinstance(f, PlayedJoker)] == sorted(
                value.jokers, key=value.resolved.index
            )
    assert any(isinstance(f, PlayedJoker) for row in rows for hand in row.hands for f in hand)


def test_a_joker_in_a_showdown_hand_is_not_drawn_at_the_end(
    showdown_rows: list[dict[str, Any]],
) -> None:
    straight = (*parse_cards("Ks Qh Jd 9c"), JOKER)
    event = _two_player_showdown(straight)
    showdown_picture(event, {1: "Ada", 2: "Bo"})
    drawn = showdown_rows[0]["rows"][0].hands[-1]
    assert [str(f.became if isinstance(f, PlayedJoker) else f) for f in drawn] == [
        "Ks",
        "Qh",
        "Jd",
        "Ts",
        "9c",
    ]
    assert isinstance(drawn[3], PlayedJoker)


def _two_player_showdown(last: tuple[AnyCard, ...]) -> ShowdownSettled:
    """A two-player Showdown Version result in which both players' last hand is ``last``."""
    texts = ("2c", "3c 3d 3h", "4c 4d 4h 5c 5d", "6c 6d 6h 7c 7d", "8c 8d 8h 9c 9d")
    hands = (*(parse_cards(text) for text in texts), last)
    labels = tuple(evaluate(hand).label for hand in hands)
    seats = tuple(SeatResult(user, None, hands, labels, None, 0) for user in (1, 2))
    return ShowdownSettled(1, "showdown", seats, (), (), {1: 0, 2: 0}, 0, 0, ())


def test_the_house_games_show_each_wager_with_its_result_in_the_seat_row(
    showdown_rows: list[dict[str, Any]],
) -> None:
    game = play_sample("three-card", players=6)
    event = game.showdown
    showdown_picture(event, game.names)
    call = showdown_rows[0]
    rows = call["rows"]
    assert len(rows) == 7 and str(rows[-1].name) == "Dealer"
    for row, seat in zip(rows[:-1], event.seats, strict=True):
        assert [w.name for w in row.wagers] == ["Main bet", "3-card bonus", "6-card bonus"]
        assert tuple(w.chips for w in row.wagers) == seat.per_hand
        for wager, played in zip(row.wagers, seat.wagers, strict=True):
            assert wager.reason and wager.reason == played.reason
        assert tuple(map(str, row.slots)) == ("Low", "High") and row.per_hand == ()
        # Each hand drawn from its highest card down.
        for hand in row.hands:
            assert list(hand) == sorted(hand, key=lambda c: c.code, reverse=True)
    # The wagers are in the rows, not in a footer.
    assert not any("bonus" in str(line) or "main bet" in str(line) for line in call["footer"])


def test_pai_gow_shows_its_one_bet_and_draws_the_bug_as_the_card_it_plays(
    showdown_rows: list[dict[str, Any]],
) -> None:
    game = play_sample("paigow", players=6, seed=1)  # the sixth player holds the joker
    showdown_picture(game.showdown, game.names)
    rows = showdown_rows[0]["rows"]
    assert all([w.name for w in row.wagers] == ["Bet"] for row in rows[:-1])
    (joker_hand,) = [hand for hand in game.showdown.seats[5].hands if JOKER in hand]
    drawn = rows[5].hands[game.showdown.seats[5].hands.index(joker_hand)]
    bug = evaluate(joker_hand, PAI_GOW_RULES).jokers
    assert JOKER not in drawn
    assert [f.became for f in drawn if isinstance(f, PlayedJoker)] == list(bug)


def test_a_setting_preview_names_its_slots_and_draws_jokers_where_they_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[Any, Any, dict[str, Any]]] = []
    original = cogs.pictures.hands_png

    def spy(hands: Any, labels: Any, **kwargs: Any) -> bytes:
        calls.append((hands, labels, kwargs))
        return original(hands, labels, **kwargs)

    monkeypatch.setattr(cogs.pictures, "hands_png", spy)
    hands = [parse_cards(text) for text in ("Ad Kc 2h", "W Js Ts 9s 8s", "Qs Qh Qd 4c 4h")]
    setting_picture(GAMES["standard"], hands, title="Suggested hands")
    drawn, labels, options = calls[0]
    assert tuple(map(str, options["slots"])) == ("Front", "Middle", "Back")
    assert str(labels[1]) == "Straight flush, queen high (W→Q♠)"
    assert drawn[1][0] == PlayedJoker(Card(Rank.QUEEN, Suit.SPADES))


def test_the_warm_up_loads_the_evaluator_of_every_game_the_pictures_lay_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    warm_up_pictures()

    def refuse(*args: Any) -> None:
        raise AssertionError("an evaluator was built after the warm-up")

    monkeypatch.setattr(engine.evaluate.Evaluator, "__init__", refuse)
    for spec in GAMES.values():
        assert evaluator(hand_rules(spec)) is evaluator(hand_rules(spec))


def test_a_player_holds_the_deal_then_the_deal_and_each_draw() -> None:
    assert held_sizes(GAMES["showdown"]) == (20, 23, 25)
    assert held_sizes(GAMES["casino"]) == (7, 9)
    assert held_sizes(GAMES["paigow"]) == (7,)


def test_after_the_warm_up_no_dm_of_any_game_draws_a_card_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Six cold hands of a new size, drawn side by side, held a Showdown's second declaration.
    warm_up_pictures()

    def refuse(*args: Any) -> None:
        raise AssertionError("a card was drawn after the warm-up")

    for drawing in ("_draw_compact", "_draw_face", "_draw_joker"):
        monkeypatch.setattr(render.cards, drawing, refuse)
    shoe = Shoe(decks=3, jokers=4, rng=random.Random(5))
    for spec in GAMES.values():
        for size in held_sizes(spec):
            hand_picture(shoe.deal(size), subtitle=spec.title)
