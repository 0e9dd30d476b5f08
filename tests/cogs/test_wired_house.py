"""The games against the house read in their reader's language: each wager's name and why it
ended (the showdown's text and picture in the channel's language, Review in the player's), the
table options of the three-card game and Pai Gow, and their hands' names drawn whole."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.publisher
import i18n
from cogs.common import say
from cogs.showdown import showdown_text
from engine.errors import GameError
from engine.text import tr
from tables.codec import decode_value, encode_value
from tables.config import make_config
from tables.events import SeatResult, ShowdownSettled, Wager
from tables.rules.house_review import reason_words, wager_words
from tests.cogs.helpers import Scene, an_admin, custom_ids, play_person, speak
from tests.i18n.reading import foreign_words, pictured
from tests.render.helpers import Drawn

#: The members' names, and the words no language translates that the answers hold.
NAMES = frozenset({"ann", "bob", "cy", "di", "ed", "flo", "boss", "poker", "club", "pyramid"})


def left(text: str, locale: str) -> list[str]:
    """The words of ``text`` not in the language of ``locale``."""
    return foreign_words(text, locale, NAMES)


async def _house_game(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, drawn: list[Drawn], game: str, locale: str
) -> tuple[Any, list[Drawn], int]:
    """The first member (in English) plays ``game`` against a computer on a server whose
    language is ``locale``: the showdown's post, the words of its picture, the game's number."""
    boss = an_admin(scene)
    assert (await boss.slash(scene.channel, "settings language", language=locale)).acknowledged
    showdown_words: list[Drawn] = []

    async def drawing(render: Any, *args: Any, **kwargs: Any) -> Any:
        before = len(drawn)
        made = render(*args, **kwargs)
        if render.__name__ == "channel_showdown":
            showdown_words.extend(drawn[before:])
        return made

    monkeypatch.setattr(cogs.publisher, "picture", drawing)
    monkeypatch.setattr(cogs.publisher, "batch_picture", drawing)
    ann = scene.members[0]
    await ann.slash(scene.channel, "table create", game=game)
    await ann.slash(scene.channel, "table addbot", level="casual")
    await ann.slash(scene.channel, "table start")
    await play_person(scene, ann)
    [showdown] = [
        m
        for m in scene.channel.history()
        if any(found.startswith("pp:review:") for found in custom_ids(m))
    ]
    review = next(found for found in custom_ids(showdown) if found.startswith("pp:review:"))
    return showdown, showdown_words, int(review.removeprefix("pp:review:"))


@pytest.mark.parametrize("game", ["three-card", "paigow"])
@pytest.mark.parametrize(
    # A game each: the quick lane plays each game in German.
    "locale",
    [
        "de",
        pytest.param("zh-CN", marks=pytest.mark.slow),
        pytest.param("fr", marks=pytest.mark.slow),
    ],
)
async def test_a_house_games_wagers_and_reasons_read_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, drawn: list[Drawn], game: str, locale: str
) -> None:
    showdown, words, number = await _house_game(scene, monkeypatch, drawn, game, locale)
    # The channel's showdown: each wager, its chips and why it ended, in the server's language.
    assert left(showdown.content, locale) == [], showdown.content
    assert words
    assert left(pictured(words, locale), locale) == [], pictured(words, locale)
    # Review, in the player's own language: the wagers of both ways and where they differ.
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: locale}, server=locale)
    drawn.clear()
    reviewed = await ann.slash(scene.channel, "review", game=number)
    assert reviewed.response.attachments
    assert left(reviewed.response.content, locale) == [], reviewed.response.content
    assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)


def _seat(reason: object) -> SeatResult:
    wagers = (
        Wager("main bet", 0, reason),  # type: ignore[arg-type]
        Wager("3-card bonus", 5, "Pair pays 1 to 1"),
        Wager("6-card bonus", -5, "Pair is not on the pay table"),
    )
    return SeatResult(1, None, (), (), None, 0, (0, 5, -5), wagers=wagers)


@pytest.mark.parametrize("locale", ["de", "zh-CN", "es-ES"])
def test_a_stored_english_reason_reads_back_in_the_language(locale: str) -> None:
    # An event stored before its reasons were texts keeps them in English: they read back.
    seat = _seat("Won the low hand and lost the high hand (ties go to the dealer)")
    event = ShowdownSettled(6, "three-card", (seat,), (), (), {1: 0}, 0, 0, ())
    english = showdown_text(event)
    assert "main bet 0 (Won the low hand and lost the high hand (ties go to the dealer))" in (
        english
    )
    assert "Won" in foreign_words(english.splitlines()[-1], locale)
    shown = showdown_text(event, locale=locale)
    assert foreign_words(shown.splitlines()[-1], locale) == [], shown
    # A reason it does not know stays as stored.
    assert reason_words("lucky") == "lucky"
    made = tr("{reason} (ties go to the dealer)", reason=tr("Tied both hands"))
    assert reason_words(str(made)) == made
    assert i18n.localize(locale, reason_words("Pai Gow")) == "Pai Gow"


@pytest.mark.parametrize("locale", ["de", "zh-CN", "fr"])
async def test_the_house_games_options_read_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    boss = an_admin(scene)
    changed = await boss.slash(
        scene.channel, "settings tables", ties_to_dealer=True, decks=8, wheel="california"
    )
    assert changed.acknowledged
    english = (await boss.slash(scene.channel, "settings show")).response.content
    lines = [line for line in english.splitlines() if "wheel" in line or "decks" in line]
    assert lines == [
        "- Three-card game: **8** decks; ties go to the dealer.",
        "- Pai Gow: the **California** wheel.",
    ]
    assert "ties" in left(lines[0], locale) and "the" in left(lines[1], locale)
    speak(monkeypatch, {boss.id: locale}, server=locale)
    shown = (await boss.slash(scene.channel, "settings show")).response.content
    assert left(shown, locale) == [], shown
    assert len(shown.splitlines()) == len(english.splitlines())
    # /table status names the game in the reader's language.
    ann = scene.members[0]
    await ann.slash(scene.channel, "table create", game="three-card")
    speak(monkeypatch, {ann.id: locale, boss.id: locale}, server=locale)
    status = (await ann.slash(scene.channel, "table status")).response.content
    assert left(status, locale) == [], status


@pytest.mark.parametrize("locale", ["de", "zh-CN", "fr"])
def test_a_bad_option_of_a_house_game_is_refused_in_the_language(locale: str) -> None:
    with pytest.raises(GameError) as wheel:
        make_config("paigow", wheel="texas")
    assert str(wheel.value) == "The wheel is Nevada or California, not 'texas'."
    with pytest.raises(GameError) as decks:
        make_config("three-card", decks=9)
    assert str(decks.value) == "The three-card game deals from 6 to 8 decks, not 9."
    for refused in (wheel.value, decks.value):
        assert left(str(refused), locale)
        # What was typed is quoted as it was.
        assert left(say(refused, locale), locale) in ([], ["texas"]), say(refused, locale)


def test_a_wager_keeps_its_texts_in_the_store_and_an_older_one_its_english() -> None:
    made = Wager(tr("main bet"), 5, tr("{hand} pays {odds} to 1", hand=tr("Pair"), odds=1))
    older = Wager("main bet", 5, "Pair pays 1 to 1")
    for wager in (made, older):
        assert decode_value(Wager, encode_value(wager)) == wager
    # Both read the same, in English and in German.
    for locale in ("en-US", "de"):
        names = {i18n.localize(locale, wager_words(w.name)) for w in (made, older)}
        reasons = {i18n.localize(locale, reason_words(w.reason)) for w in (made, older)}
        assert len(names) == len(reasons) == 1
    assert i18n.localize("de", reason_words(older.reason)) == "Paar zahlt 1 zu 1"
    thousand = reason_words("Six of a kind pays 1000 to 1")
    assert str(thousand) == "Six of a kind pays 1,000 to 1"
    assert i18n.localize("de", thousand) == "Sechsling zahlt 1.000 zu 1"
