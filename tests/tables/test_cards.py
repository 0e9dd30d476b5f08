"""The games' rules cards say the rules' own numbers (RULINGS §2-§6 and the seeds' tables), and
say them from the games' data: a number changed there changes the card."""

from __future__ import annotations

from dataclasses import dataclass, replace

import i18n
from engine.cards import Rank, parse_hands
from engine.variants import CASINO, STANDARD
from tables.games import GAMES, rules_card, rules_of
from tables.rules import ReadChart, RulesCard
from tables.rules.house import HouseRules, two_card_label, two_card_words
from tables.rules.house_review import wager_words
from tables.rules.pyramid_pages import pyramid_card

DASH = "\N{EN DASH}"


@dataclass(frozen=True, slots=True)
class Page:
    """A page as an English reader reads it."""

    name: str
    text: str
    charts: tuple[ReadChart, ...]


def english_page(card: RulesCard, name: str) -> Page:
    found = next(p for p in card.pages if str(p.name) == name)
    return Page(str(found.name), str(found.text), tuple(c.read(str) for c in found.charts))


def page(game: str, name: str) -> Page:
    return english_page(rules_card(GAMES[game]), name)


def test_the_showdown_chart_is_the_rulings_table_by_hand() -> None:
    [chart] = page("showdown", "Scoring").charts
    assert chart.over == "Hand" and chart.headings == ("Winning hand", "6", "5", "4", "3", "2")
    # RULINGS §2, one row per hand (columns: Hands 6 to 2); a 1 is a plain win, a dash a hand
    # that cannot be played there.
    no = DASH
    assert chart.rows == (
        ("Trips", "1", "1", "3", "6", "9"),
        ("Full house", "1", "2", "4", "6", no),
        ("Four of a kind", "4", "8", "12", "16", no),
        ("Straight flush", "5", "10", "15", "20", no),
        ("Five of a kind", "6", "12", "18", "24", no),
        ("6-card straight flush", "8", "16", "24", no, no),
        ("Six of a kind", "10", "20", "30", no, no),
        ("7-card straight flush", "11", "22", no, no, no),
        ("Seven of a kind", "14", "28", no, no, no),
        ("8-card straight flush", "14", no, no, no, no),
        ("Eight of a kind", "18", no, no, no, no),
        ("9-card straight flush", "17", no, no, no, no),
        ("Nine of a kind", "22", no, no, no, no),
        ("10-card straight flush", "20", no, no, no, no),
        ("Ten of a kind", "26", no, no, no, no),
    )


def test_the_17_card_chart_is_the_seeds_point_table() -> None:
    for game in ("standard", "no-surrender"):
        [chart] = page(game, "Scoring").charts
        assert chart.headings == ("Winning hand", "Back", "Middle", "Front")
        assert chart.rows[:7] == (
            ("Trips", "1", "1", "3"),
            ("Straight", "1", "1", "4"),
            ("Flush", "1", "1", "4"),
            ("Full house", "1", "2", "5"),
            ("Four of a kind", "4", "8", "12"),
            ("Straight flush", "5", "10", "15"),
            ("Five of a kind", "6", "12", "18"),
        )
        assert chart.rows[-1] == ("Eight of a kind", "18", DASH, DASH)
    assert "Every point counts twice" in page("standard", "Scoring").charts[0].note
    assert "twice" not in page("no-surrender", "Scoring").charts[0].note


def test_the_casino_chart_has_the_specials_of_the_winning_hand() -> None:
    [chart] = page("casino", "Scoring").charts
    assert chart.headings == ("Winning hand", "3", "2", "1")
    assert chart.rows == (
        ("Ace high", "1", "1", "2"),
        ("Trips", "1", "3", DASH),
        ("Full house", "2", DASH, DASH),
        ("Four of a kind", "4", DASH, DASH),
        ("Straight flush", "5", DASH, DASH),
        ("Five of a kind", "6", DASH, DASH),
    )


def test_a_showdown_surrender_costs_what_the_settlement_moves() -> None:
    text = page("showdown", "Surrender").text
    lines = [line for line in text.splitlines() if line.startswith("- ") and "players:" in line]
    # The docs' table (docs/rules.md, "What a surrender costs"), table size by table size.
    assert lines == [
        "- 2 players: 15 at declaration 1, 30 at declaration 2",
        "- 3 players: 20 at declaration 1, 40 at declaration 2",
        "- 4 players: 25 at declaration 1, 50 at declaration 2",
        "- 5 players: 30 at declaration 1, 60 at declaration 2",
        "- 6 players: 35 at declaration 1, 70 at declaration 2",
    ]
    assert "pay 5 chips to each player who plays on" in text


def test_the_three_card_bonuses_are_the_seeds_pay_tables() -> None:
    three, six = page("three-card", "Bonuses").charts
    assert three.rows == (
        ("A-K-Q of one suit", "50 to 1"),
        ("Straight flush", "30 to 1"),
        ("Three of a kind", "20 to 1"),
        ("Straight", "5 to 1"),
        ("Flush", "2 to 1"),
        ("Pair", "1 to 1"),
        ("7 high or lower, no ace", "push"),
        ("Anything else", "loses"),
    )
    assert [odds for _, odds in six.rows[:3]] == ["1,000 to 1", "200 to 1", "75 to 1"]
    way = page("three-card", "The dealer's way").text
    assert "jacks need a 7 or better, queens an 8, kings a 9, aces a 10" in way


def test_a_number_changed_in_the_games_data_changes_its_card() -> None:
    spec = GAMES["standard"]
    tripled = replace(spec, numbers=replace(STANDARD, multiplier=3))
    scoring = english_page(pyramid_card(tripled), "Scoring")
    assert "- Every point counts 3 times in this game." in scoring.text.splitlines()
    assert scoring.charts[0].note.endswith("Every point counts 3 times.")
    richer = replace(GAMES["casino"], numbers=replace(CASINO, deal=8))
    assert "gets 8 cards" in str(pyramid_card(richer).pages[0].text)


def test_every_house_wager_is_named_in_every_language_in_a_review() -> None:
    # The review words a wager that went otherwise than the best way's by its name.
    dealt = {"three-card": ("As Kd 7c", "Qh 9s 2d"), "paigow": ("As Kd 7c 5h 4s 3d 2c", "")}
    for game, (mine, theirs) in dealt.items():
        rules = rules_of(GAMES[game])
        assert isinstance(rules, HouseRules)
        held = parse_hands(mine)[0]
        other = parse_hands(theirs)[0] if theirs else parse_hands("Qh Jh 9s 8d 6c 3h 2s")[0]
        names = [name for name, _ in rules.wagers(rules.house_way(held), rules.house_way(other))]
        for name in names:
            words = wager_words(name)
            assert str(words) == name
            for language in i18n.LANGUAGES:
                assert i18n.localize(language.discord, words) != name, (game, name)


def test_the_house_games_hand_names_read_as_before_in_english_and_translate() -> None:
    three = rules_of(GAMES["three-card"])
    assert isinstance(three, HouseRules)
    for low in Rank:
        for high in Rank:
            cards = parse_hands(f"{_code(low)}s {_code(high)}h")[0]
            big, small = sorted((low, high), reverse=True)
            english = (
                f"Pair of {big.plural}" if big == small else f"{big.word.capitalize()}-{small.word}"
            )
            assert two_card_label(cards) == english
            words = two_card_words(cards)
            for language in i18n.LANGUAGES:
                assert i18n.localize(language.discord, words) != english, (language, english)
    hands = parse_hands("9c | Kd Ks")
    assert three.labels(hands) == ("Nine high", "Pair of kings")
    assert [i18n.localize("de", words) for words in three.label_words(hands)] == [
        "Neun hoch",
        "Paar Könige",
    ]
    assert [i18n.localize("zh-CN", words) for words in three.label_words(hands)] == [
        "9高",
        "一对K",
    ]


def _code(rank: Rank) -> str:
    return {Rank.TEN: "10", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"}.get(
        rank, str(int(rank))
    )


def test_every_games_hands_are_named_alike_in_english_and_translated() -> None:
    for spec in GAMES.values():
        rules = rules_of(spec)
        words = rules.slot_words()
        assert tuple(str(word) for word in words) == rules.slot_names()
        for language in i18n.LANGUAGES:
            read = [i18n.localize(language.discord, word) for word in words]
            assert all(read) and len(set(read)) == len(read)
    assert [str(w) for w in rules_of(GAMES["standard"]).slot_words()] == ["Front", "Middle", "Back"]
    assert i18n.localize("de", rules_of(GAMES["showdown"]).slot_words()[0]) == "Hand 1"
    assert i18n.localize("zh-CN", rules_of(GAMES["paigow"]).slot_words()[1]) == "高手牌"
