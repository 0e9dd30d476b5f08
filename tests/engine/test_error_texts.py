"""The engine's refusals read in the player's language: a malformed card, a fouled or misshapen
arrangement, a holding the shoe cannot deal; the English stays as it was, and an error keeps its
text when it crosses a worker process."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

import i18n
from engine.arrangement import (
    describe_hand,
    hand_text,
    hand_title,
    parse_arrangement,
    verify_arrangement,
)
from engine.automatics import layout_automatic
from engine.cards import parse_card, parse_cards
from engine.errors import CardError, GameError
from engine.evaluate import evaluate
from engine.solver.solve import verify_dealable
from engine.three_card import (
    ThreeCardVariant,
    house_way,
    settle_main_bet,
    settle_three_card_bonus,
)
from engine.variants import CASINO, SHOWDOWN, STANDARD, Automatic, Variant, variant_named


def refusal(action: Callable[[], object]) -> GameError:
    with pytest.raises(GameError) as raised:
        action()
    return raised.value


def read(error: GameError, locale: str) -> str:
    return i18n.localize(locale, error.text)


def test_a_malformed_card_reads_in_every_language() -> None:
    error = refusal(lambda: parse_cards("As Kx"))
    assert isinstance(error, CardError)
    assert str(error) == (
        "I can't read 'Kx' as cards: a card is a rank (2-9, T or 10, J, Q, K, A) followed by a "
        "suit (s, h, d, c or ♠ ♥ ♦ ♣), like As or 10h; a joker is W."
    )
    assert read(error, "en-US") == str(error)
    assert read(error, "de") == (
        "Ich kann 'Kx' nicht als Karten lesen: eine Karte ist ein Rang (2-9, T oder 10, J, Q, K, "
        "A) gefolgt von einer Farbe (s, h, d, c oder ♠ ♥ ♦ ♣), etwa As oder 10h; ein Joker ist W."
    )
    assert read(error, "zh-CN") == (
        "无法把 'Kx' 读作牌：一张牌由点数（2-9、T 或 10、J、Q、K、A）"
        "加花色（s、h、d、c 或 ♠ ♥ ♦ ♣）组成，如 As 或 10h；王牌写作 W。"
    )
    assert read(error, "es-ES").startswith("No puedo leer 'Kx' como cartas: una carta es un valor")
    # The player's input is quoted as typed, in every language.
    one = refusal(lambda: parse_card("As Ks"))
    assert read(one, "fr").startswith("'As Ks' n'est pas une seule carte : une carte est un rang")


def test_a_fouled_arrangement_names_its_hands_in_the_readers_language() -> None:
    # Hand 2 (a 3-card high card) is not stronger than Hand 1 (an ace): a foul.
    fouled = parse_arrangement("As | 2c 3d 5h | Kc Kd Kh 7s 7d")
    error = refusal(lambda: verify_arrangement(CASINO, None, fouled))
    assert str(error) == (
        "Hand 2 must be stronger than Hand 1: Hand 2 is five high, then 3 2, Hand 1 is ace high."
    )
    assert read(error, "de") == (
        "Hand 2 muss stärker sein als Hand 1: Hand 2 ist Fünf hoch, dann 3 2, Hand 1 ist Ass hoch."
    )
    assert read(error, "zh-CN") == (
        "第 2 手必须比第 1 手大：第 2 手是高牌 5，其后 3 2，第 1 手是高牌 A。"
    )
    assert read(error, "es-ES") == (
        "Mano 2 debe ser más fuerte que Mano 1: Mano 2 es carta alta cinco, luego 3 2, "
        "Mano 1 es carta alta as."
    )
    # The 17-card game allows equal hands; "at least as strong" is its own sentence.
    weak_back = parse_arrangement("Js Jd 4h | Ac Ad Kh Ks 2c | Ah Qs Tc Kd 2d")
    error = refusal(lambda: verify_arrangement(STANDARD, None, weak_back))
    assert str(error) == (
        "The back hand must be at least as strong as the middle hand: the back hand is ace high, "
        "then K Q T 2, the middle hand is two pair, aces and kings (2)."
    )
    assert read(error, "de") == (
        "Die hintere Hand muss mindestens so stark sein wie die mittlere Hand: die hintere Hand "
        "ist Ass hoch, dann K Q T 2, die mittlere Hand ist zwei Paare, Asse und Könige (2)."
    )
    assert read(error, "zh-CN") == (
        "尾道至少要和中道一样大：尾道是高牌 A，其后 K Q T 2，中道是两对，A 和 K（2）。"
    )


HANDS = (
    "Ah",
    "Ah Kd",
    "2h 2d 2c",
    "W Ah Ad",
    "2h 5h 9h",
    "As 2s 3s",
    "Ah 2c 3d",
    "Ah Kc Qd",
    "2h 3h 4h",
    "Ah Ad Kd Kc 2c",
    "As Ad 2h 3c 4c",
    "Ah 2c 3d 4s 5s",
    "9h Tc Jd Qs Ks",
    "2h 5h 9h Jh Kh",
    "Kh Kd Ks 4c 4d",
    "As Ad Ah Ac 2d",
    "As Ad Ah Ac W",
    "As 2s 3s 4s 5s",
    "Ts Js Qs Ks As",
    "9s Ts Js Qs Ks",
    "As Ad Ah Ac W W",
    "As 2s 3s 4s 5s 6s",
    "W 2s 3s 4s 5s 6s 7s",
    "Ks Qs Js Ts 9s 8s 7s 6s",
    "9s 9d 9h 9c 9s 9d 9h 9c 9s 9d",
)


@pytest.mark.parametrize("variant", [SHOWDOWN, STANDARD], ids=["showdown", "standard"])
def test_a_hands_names_read_in_english_as_before(variant: Variant) -> None:
    for text in HANDS:
        value = evaluate(parse_cards(text), variant.hand_rules)
        assert str(hand_text(value)) == describe_hand(value), text
        assert str(hand_title(value)) == value.label, text
        assert i18n.localize("de", hand_text(value)) != describe_hand(value), text
        assert i18n.localize("zh-CN", hand_title(value)) != value.label, text


def test_a_hands_name_reads_in_the_readers_language() -> None:
    nines = evaluate(parse_cards("9s 9d Kh 3c 2c"))
    assert str(hand_text(nines)) == "a pair of nines (K 3 2)"
    assert i18n.localize("de", hand_text(nines)) == "ein Paar Neunen (K 3 2)"
    assert i18n.localize("zh-CN", hand_text(nines)) == "一对 9（K 3 2）"
    assert i18n.localize("es-ES", hand_text(nines)) == "una pareja de nueves (K 3 2)"
    wild = evaluate(parse_cards("W 2s 3s 4s 5s 6s 7s"))
    assert str(hand_text(wild)) == "a 7-card straight flush, wheel, ace to seven (W→A♠)"
    assert i18n.localize("de", hand_text(wild)) == (
        "ein Straight Flush aus 7 Karten, Wheel, Ass bis Sieben (W→A♠)"
    )
    assert i18n.localize("zh-CN", hand_text(wild)) == "7 张最小同花顺，A 到 7（W→A♠）"
    # Standing alone (a caption), a hand's name is its label.
    assert str(hand_title(nines)) == nines.label == "Pair of nines (K 3 2)"
    assert i18n.localize("de", hand_title(nines)) == "Paar Neunen (K 3 2)"
    assert i18n.localize("fr", hand_title(nines)) == "Paire, neuf (K 3 2)"
    ace = evaluate(parse_cards("Ah Kd"))
    assert str(hand_title(ace)) == "Ace high, then K"
    assert i18n.localize("es-ES", hand_title(ace)) == "Carta alta As, luego K"
    assert i18n.localize("zh-CN", hand_title(ace)) == "高牌 A，其后 K"


def test_a_misshapen_arrangement_reads_in_every_language() -> None:
    four_in_front = parse_arrangement("As Ad Kh Kc | 2c 3d 5h 6h 8h | Qc Qd Qh 7s 7d")
    error = refusal(lambda: verify_arrangement(STANDARD, None, four_in_front))
    assert str(error) == "The front hand holds 4; it must hold 3 or 5 cards."
    assert read(error, "de") == "Die vordere Hand hat 4; sie muss 3 oder 5 Karten haben."
    assert read(error, "zh-CN") == "头道有 4 张；必须是 3 或 5 张。"
    assert read(error, "es-ES") == "La mano delantera tiene 4; debe tener 3 o 5 cartas."
    # A power hand's condition is a text of its own, translated inside the sentence.
    weak_front = parse_arrangement("As Ad 2h 3c 4c | 2c 3d 5h 6h 8h | Qc Qd Qh 7s 7d")
    error = refusal(lambda: verify_arrangement(STANDARD, None, weak_front))
    assert str(error).startswith("A 5-card front hand must be a straight or better; yours is ")
    assert read(error, "de").startswith(
        "Eine vordere Hand mit 5 Karten muss eine Straße oder besser sein; deine ist "
    )
    assert read(error, "zh-CN").startswith("5 张牌的头道必须是顺子或更大；你的是")
    # Too few hands: the slots named at both ends.
    error = refusal(lambda: verify_arrangement(SHOWDOWN, None, parse_arrangement("As | Ks Kd Kh")))
    assert str(error) == "Set 6 hands (Hand 1 to Hand 6), weakest first; you set 2."
    assert read(error, "de") == (
        "Lege 6 Hände (Hand 1 bis Hand 6), die schwächste zuerst; du hast 2 gelegt."
    )
    assert read(error, "zh-CN") == "请摆 6 手牌（第 1 手到第 6 手），从最弱的开始；你摆了 2 手。"


def test_cards_not_held_and_an_automatic_not_made_read_in_every_language() -> None:
    held = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s")
    error = refusal(
        lambda: verify_arrangement(
            CASINO, held, parse_arrangement("Ah | Ks Qs Js | Ts 9s 8s 7s 6s")
        )
    )
    assert str(error) == "You do not hold a A♥."
    assert read(error, "de") == "Du hast die Karte A♥ nicht."
    assert read(error, "zh-CN") == "你没有A♥。"
    twice = refusal(
        lambda: verify_arrangement(CASINO, parse_cards("W"), parse_arrangement("W | W"))
    )
    assert str(twice) == "You do not hold a second joker."
    assert read(twice, "de") == "Du hast die Karte Joker kein zweites Mal."
    assert read(twice, "es-ES") == "No tienes un segundo comodín."
    dealt = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s")
    error = refusal(lambda: layout_automatic(STANDARD, dealt, Automatic.THREE_FULL_HOUSES))
    assert str(error) == "Your cards do not make three full houses."
    assert read(error, "de") == "Deine Karten ergeben nicht die Automatik drei Full Houses."
    assert read(error, "zh-CN") == "你的牌组成不了三个葫芦。"


def test_the_games_and_the_shoe_are_named_in_the_readers_language() -> None:
    error = refusal(lambda: variant_named("poker"))
    assert str(error) == (
        "There is no game called 'poker'; try one of showdown, casino, standard, no-surrender, "
        "three-card, paigow."
    )
    assert read(error, "zh-CN").startswith("没有名为 'poker' 的游戏；可选：showdown, casino")
    error = refusal(lambda: variant_named("Pai Gow"))
    assert str(error) == (
        "'Pai Gow' is not a Pyramid game; try one of showdown, casino, standard, no-surrender."
    )
    assert read(error, "de") == (
        "'Pai Gow' ist kein Pyramid-Spiel; versuch eines von diesen: showdown, casino, standard, "
        "no-surrender."
    )
    too_many = parse_cards("W W W")
    error = refusal(lambda: verify_dealable(CASINO, too_many))
    assert str(error) == "Casino Version deals from 2 decks and 2 jokers: no holding has 3 jokers."
    assert (
        read(error, "de")
        == "Casino-Version teilt aus 2 Decks und 2 Jokern aus: kein Blatt hat 3 Joker."
    )
    assert read(error, "zh-CN") == "赌场版用 2 副牌和 2 张王牌发牌：不可能拿到 3 张王牌。"
    big = refusal(lambda: evaluate(parse_cards("As Ad Ah Ac Ks Kd")))
    assert str(big) == "A 6-card hand must be six of a kind or a 6-card straight flush."
    assert read(big, "de") == (
        "Eine Hand aus 6 Karten muss sechs Gleiche oder ein Straight Flush aus 6 Karten sein."
    )
    assert read(big, "zh-CN") == "6 张牌的一手牌必须是六条或 6 张同花顺。"


def test_an_engine_error_keeps_its_text_across_a_worker_process() -> None:
    error = refusal(lambda: parse_cards("As Kx"))
    copied = pickle.loads(pickle.dumps(error))
    assert type(copied) is CardError
    assert str(copied) == str(error)
    assert copied.text == error.text
    assert read(copied, "de") == read(error, "de")
    # An evaluator remembers a refused hand; the second refusal reads the same.
    cards = parse_cards("As Ad Ah Ac Ks Kd")
    first, second = refusal(lambda: evaluate(cards)), refusal(lambda: evaluate(cards))
    assert first.text == second.text and first is not second


def test_the_longest_refusals_fit_a_discord_message_in_every_language() -> None:
    typed = "Xx" * 500  # a player's input is quoted by its start and its length
    long_input = refusal(lambda: parse_cards(typed))
    not_one = refusal(lambda: parse_card(typed))
    too_many = refusal(lambda: verify_arrangement(SHOWDOWN, None, parse_arrangement("As")))
    assert str(long_input).startswith(f"I can't read {'Xx' * 20!r}… (1,000 characters) as cards")
    assert read(long_input, "de").startswith(f"Ich kann {'Xx' * 20!r}… (1.000 Zeichen) nicht")
    assert read(long_input, "zh-CN").startswith(f"无法把 {'Xx' * 20!r}…（1,000 个字符） 读作牌")
    for locale in ("en-US", *(language.discord for language in i18n.LANGUAGES)):
        for error in (long_input, not_one, too_many):
            assert len(read(error, locale)) <= 2_000, (locale, str(error))


def test_a_wager_against_the_house_says_why_in_the_readers_language() -> None:
    bonus = settle_three_card_bonus(parse_cards("As Ks Qs"))
    assert bonus.reason == "Ace king queen suited pays 50 to 1"
    assert i18n.localize("de", bonus.text) == "Ass, König, Dame in einer Farbe zahlt 50 zu 1"
    assert i18n.localize("zh-CN", bonus.text) == "同花 A K Q：赔率 50 比 1"
    tied = ThreeCardVariant(ties_to_dealer=True)
    player = house_way(parse_cards("9s 4h 2d"), tied)
    banker = house_way(parse_cards("9d 4c 2s"), tied)
    main = settle_main_bet(player, banker, tied)
    assert main.reason == "Lost both hands (ties go to the dealer)"
    assert i18n.localize("de", main.text) == "Beide Hände verloren (Gleichstand geht an den Dealer)"
    assert i18n.localize("es-ES", main.text) == (
        "Perdió ambas manos (los empates son para el crupier)"
    )
    # A payout keeps its English reason beside the text, and equal payouts stay equal.
    assert main == settle_main_bet(player, banker, tied)
