"""A `Text` is English until a reader's language is chosen: its values are translated in turn,
players named as the edge names them, numbers and lists written as the language writes them."""

from __future__ import annotations

import pickle

import i18n
from engine.errors import GameError
from engine.text import PlainNames, Where, Who, tr, tr_plural
from tables.runtime import RESTARTING


class Tags(PlainNames):
    def user(self, user_id: int) -> str:
        return f"<@{user_id}>"


def test_a_text_reads_in_english_with_its_values_until_a_language_is_chosen() -> None:
    text = tr("{who} has {chips} chips in {where}.", who=Who(7), chips=12345, where=Where(3))
    assert str(text) == "player 7 has 12,345 chips in channel 3."
    assert text.english(Tags()) == "<@7> has 12,345 chips in channel 3."
    assert i18n.localize("en-US", text, Tags()) == "<@7> has 12,345 chips in channel 3."
    # A locale without a catalog reads English, and so does a text no catalog has.
    assert i18n.localize("ja", text) == str(text)
    assert i18n.localize("de", text) == "player 7 has 12.345 chips in channel 3."


def test_a_translated_text_fills_its_values_in_the_readers_language() -> None:
    assert i18n.localize("de", RESTARTING) == "Der Bot startet neu; versuch es gleich noch einmal."
    assert i18n.localize("zh-CN", RESTARTING) == "机器人正在重启；请稍后再试。"
    assert i18n.localize("es-419", RESTARTING) == i18n.localize("es-ES", RESTARTING)
    nested = tr("{reason} ({count})", reason=RESTARTING, count=1500)
    french = "Le bot redémarre ; réessaie dans un instant. (1\u202f500)"
    assert i18n.localize("fr", nested) == french


def test_plurals_and_lists_follow_the_readers_language() -> None:
    hands = tr_plural("{count} hand", "{count} hands", 1)
    assert [str(tr_plural("{count} hand", "{count} hands", n)) for n in (1, 2)] == [
        "1 hand",
        "2 hands",
    ]
    assert str(hands) == "1 hand"
    listed = tr("Seated: {players}.", players=(Who(1), Who(2), Who(3)))
    assert str(listed) == "Seated: player 1, player 2 and player 3."
    assert i18n.localize("de", listed) == "Seated: player 1, player 2 und player 3."
    assert i18n.localize("fr", tr("{players}", players=(Who(1), Who(2)))) == "player 1 et player 2"


def test_an_error_keeps_its_text_through_a_worker_process_boundary() -> None:
    error = GameError(RESTARTING)
    assert str(error) == "The bot is restarting; try again in a moment."
    copied = pickle.loads(pickle.dumps(error))
    assert copied.text == RESTARTING
    assert i18n.localize("de", copied.text) == i18n.localize("de", RESTARTING)
    # A plain string stays as it is, in every language.
    assert i18n.localize("de", GameError("as typed").text) == "as typed"
