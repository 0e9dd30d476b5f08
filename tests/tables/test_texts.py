"""What the tables say is a `Text`, read in each reader's language: a table's refusals, the
reasons and notes its events carry (through the outbox and back, as after a restart), the hands'
names, the achievements and the computers' names."""

from __future__ import annotations

import json
import random

import pytest

import i18n
from engine.cards import parse_cards
from engine.errors import GameError
from engine.text import Text, Where, Who, tr, tr_plural
from tables.achievements import ACHIEVEMENTS, BY_KEY
from tables.codec import decode_event, encode_event
from tables.computers import computer_label
from tables.config import make_config
from tables.events import (
    AchievementEarned,
    Note,
    SeatResult,
    ShowdownSettled,
    TableAbandoned,
    TableClosed,
    Wager,
)
from tables.games import GAMES, rules_of
from tables.hand_names import HIGH_CARDS, hand_name, slot_name
from tables.hands import hand_labels, setting_shape, slot_names
from tables.table import Table
from tests.i18n.reading import foreign_words
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World

CARDS = tuple(parse_cards("As Kh W 2c 2c"))
#: Every language with a catalog, and the longest a Discord embed field's name and value hold.
LOCALES = [language.discord for language in i18n.LANGUAGES]
FIELD_NAME, FIELD_VALUE = 256, 1024


def round_trip(event: object) -> object:
    """The event as the outbox keeps it (JSON in the database) and reads it back."""
    assert isinstance(event, TableClosed | ShowdownSettled | AchievementEarned | TableAbandoned)
    return decode_event(json.loads(json.dumps(encode_event(event))))


def test_a_text_in_an_event_comes_back_from_the_outbox_still_translatable() -> None:
    nested = tr(
        "{players} left {where} after {count} games ({why}).",
        players=(Who(11), Who(12)),
        where=Where(3003),
        count=1500,
        why=tr_plural("{count} minute", "{count} minutes", 2, unit=True, ratio=0.5),
    )
    for event in (
        TableClosed(nested),
        TableClosed(tr_plural("No game started for {count} minute.", "x {count}", 30)),
        TableAbandoned("showdown", (11,), {11: 5}, tr("The game was refunded."), 7),
    ):
        back = round_trip(event)
        assert back == event
        assert isinstance(back, TableClosed | TableAbandoned) and isinstance(back.reason, Text)
    assert str(round_trip(TableClosed(nested)).reason) == (  # type: ignore[attr-defined]
        "player 11 and player 12 left channel 3003 after 1,500 games (2 minutes)."
    )


def test_a_showdown_keeps_its_hands_names_notes_and_wagers_as_texts() -> None:
    labels = (hand_name("Pair of kings (Q 9 4)"), hand_name("Ace-seven"))
    note = Note(tr("{player} could cover only {available} chips.", player=Who(11), available=3), 11)
    event = ShowdownSettled(
        game_id=7,
        game="showdown",
        seats=(
            SeatResult(
                11, None, (CARDS[:1], CARDS[1:]), labels, None, 5, wagers=(Wager("bet", 5, "won"),)
            ),
        ),
        matrix=((0,),),
        matrix_players=(11,),
        nets={11: 5},
        house=-5,
        pot=0,
        pot_winners=(),
        dealer_labels=(hand_name("Royal flush"),),
        notes=(note, Note("an older row's note", 11)),
    )
    back = round_trip(event)
    assert back == event
    assert isinstance(back, ShowdownSettled)
    assert i18n.localize("de", back.seats[0].labels[0]) == "Paar Könige (Q 9 4)"
    assert i18n.localize("zh-CN", back.dealer_labels[0]) == "皇家同花顺"
    named = {11: "Ann"}.__getitem__
    assert back.notes[0].render(named) == "Ann could cover only 3 chips."
    # An older row's note, a plain string, still follows the player's name.
    assert back.notes[1].render(named, "de") == "Ann an older row's note"


def test_an_older_rows_plain_strings_still_read() -> None:
    closed = decode_event({"type": "TableClosed", "fields": {"reason": "Everyone left."}})
    assert closed == TableClosed("Everyone left.")
    earned = decode_event(
        {
            "type": "AchievementEarned",
            "fields": {"user": 11, "achievement": "first-game", "name": "Pull", "description": "d"},
        }
    )
    assert isinstance(earned, AchievementEarned) and earned.name == "Pull"
    showdown = encode_event(round_trip_showdown_with_plain_labels())
    assert decode_event(showdown) == round_trip_showdown_with_plain_labels()


def round_trip_showdown_with_plain_labels() -> ShowdownSettled:
    seat = SeatResult(11, None, (CARDS[:1],), ("Hand 1",), None, 0)
    return ShowdownSettled(7, "showdown", (seat,), (), (), {}, 0, 0, ())


def test_a_damaged_text_is_refused_as_a_damaged_event() -> None:
    with pytest.raises(GameError, match="damaged"):
        decode_event({"type": "TableClosed", "fields": {"reason": {"$text": 5}}})


def test_a_tables_refusal_reads_in_the_players_language() -> None:
    table = Table.open(GUILD, CHANNEL, HOST, make_config("showdown"))
    with pytest.raises(GameError) as refused:
        table.start(PLAYERS[1], game_id=1, seed=1, now=0.0)
    text = refused.value.text
    assert str(refused.value) == "Only the table's host can start the game."
    assert i18n.localize("de", text) == "Nur der Gastgeber des Tisches kann die Partie starten."
    assert i18n.localize("zh-CN", text) == "只有房主可以开始牌局。"
    with pytest.raises(GameError) as refused:
        make_config("showdown", ante=2_000_000)
    assert str(refused.value) == "An ante is 1 to 1,000,000 chips, not 2,000,000."
    assert i18n.localize("de", refused.value.text) == (
        "Ein Ante beträgt 1 bis 1.000.000 Chips, nicht 2.000.000."
    )
    assert i18n.localize("fr", refused.value.text) == (
        "Un ante va de 1 à 1\u202f000\u202f000 jetons, pas 2\u202f000\u202f000."
    )


def test_achievements_read_in_the_players_language() -> None:
    first = BY_KEY["first-game"]
    assert (str(first.name), str(first.description)) == ("Pull up a chair", "Play your first game.")
    assert i18n.localize("de", first.name) == "Setz dich dazu"
    assert i18n.localize("zh-CN", first.description) == "玩你的第一局。"
    assert i18n.localize("es-ES", BY_KEY["ten-wins"].description) == "Gana 10 partidas."


@pytest.mark.parametrize("locale", LOCALES)
def test_every_achievement_fits_an_embed_field_in_every_language(locale: str) -> None:
    for achievement in ACHIEVEMENTS:
        name = i18n.localize(locale, achievement.name)
        description = i18n.localize(locale, achievement.description)
        assert description != str(achievement.description)
        assert len(name) <= FIELD_NAME and len(description) <= FIELD_VALUE


def test_hand_labels_and_slots_read_in_the_readers_language() -> None:
    showdown = GAMES["showdown"]
    hands = [parse_cards("Kh Kd Qs 9c 4d"), parse_cards("As Ah Ad 7c 7d")]
    labels = hand_labels(showdown, hands)
    assert [str(label) for label in labels] == list(rules_of(showdown).labels(hands))
    assert [i18n.localize("de", label) for label in labels] == [
        "Paar Könige (Q 9 4)",
        "Full House, Asse über Siebenen",
    ]
    assert [i18n.localize("zh-CN", label) for label in labels] == ["一对K（Q 9 4）", "葫芦，A带7"]
    assert [i18n.localize("de", slot) for slot in slot_names(GAMES["standard"])] == [
        "Vorne",
        "Mitte",
        "Hinten",
    ]
    assert i18n.localize("zh-CN", slot_name("Hand 3")) == "第 3 手"
    paigow = hand_labels(GAMES["paigow"], [parse_cards("As 7d"), parse_cards("Ks Qs Js Ts 9s")])
    assert [i18n.localize("fr", label) for label in paigow] == [
        "As-sept",
        "Quinte flush hauteur roi",
    ]
    joker = hand_name("6-card straight flush, nine high (W→8♠)")
    assert i18n.localize("es-ES", joker) == "Escalera de color de 6 cartas al nueve (W→8♠)"


def test_every_name_the_rules_give_a_hand_is_read_into_a_text_with_the_same_english() -> None:
    """Many hands of every game, jokers and narrow suits and ranks among them (straights,
    flushes, n of a kind): no name falls back to an untranslated string."""
    rng = random.Random(7)
    ranks = "23456789TJQKA"
    unread: set[str] = set()
    for spec in GAMES.values():
        rules, shape = rules_of(spec), setting_shape(spec)
        for _ in range(1500):
            suits = rng.choice(["s", "sh", "shdc"])
            chosen = rng.sample(ranks, rng.randint(2, 13))
            try:
                hands = [
                    parse_cards(
                        " ".join(
                            "W" if rng.random() < 0.08 else rng.choice(chosen) + rng.choice(suits)
                            for _ in range(rng.choice(slot.sizes))
                        )
                    )
                    for slot in shape
                ]
                labels = rules.labels(hands)
            except GameError:
                continue
            for label in labels:
                named = hand_name(label)
                assert str(named) == label
                if named.msgid == label and not named.values and label not in RAW_NAMES:
                    unread.add(label)
    assert unread == set()


#: The names that are message ids themselves ("Royal flush", "Nine high").
RAW_NAMES = {"Royal flush", "Wheel, ace to five", *HIGH_CARDS}


def test_a_computers_name_reads_in_the_readers_language() -> None:
    name = computer_label(-2, "strong")
    assert str(name) == "Computer 2 (strong)"
    assert i18n.localize("de", name) == "Computer 2 (stark)"
    assert i18n.localize("zh-CN", name) == "电脑 2（强）"


async def test_a_closing_reason_queued_in_the_outbox_reads_in_each_language(world: World) -> None:
    """An idle lobby closes; Discord refuses the post, so the reason waits in the database and
    is read back from there as a later delivery (or the next start) reads it."""
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("showdown"))
    world.publisher.refuse(TableClosed, times=None)
    world.clock.advance(31 * 60)
    await world.scheduler.run_due()
    rows = await world.storage.outbox.pending(GUILD, CHANNEL)
    [closed] = [decode_event(row.event) for row in rows if row.event["type"] == "TableClosed"]
    assert isinstance(closed, TableClosed) and isinstance(closed.reason, Text)
    assert str(closed.reason) == "No game started for 30 minutes."
    assert i18n.localize("de", closed.reason) == "30 Minuten lang begann keine Partie."
    assert i18n.localize("zh-CN", closed.reason) == "30 分钟内没有开始牌局。"


def test_an_option_for_other_games_names_them_in_the_readers_language() -> None:
    # "decks" is the three-card game's: at Pai Gow, the refusal names that game the reader's way.
    with pytest.raises(GameError) as refused:
        make_config("paigow", decks=6)
    assert str(refused.value) == "The decks option is for the three-card game, not Pai Gow poker."
    german = i18n.localize("de", refused.value.text)
    assert "das Drei-Karten-Spiel" in german
    assert foreign_words(german, "de", frozenset({"pai", "gow"})) == []
    assert foreign_words(str(refused.value), "de", frozenset({"pai", "gow"}))
