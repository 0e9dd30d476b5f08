"""The last English of the answers, read in German and Chinese through the commands themselves:
the suggestion (its automatic, its expected points, the command it names), a command named
inside a sentence, a new table's game, the showdown's computers and the closing reason of a
channel the bot can no longer post in."""

from __future__ import annotations

import re
from typing import Any

import pytest

import i18n
from cogs.arrange import suggestion_text
from engine.cards import parse_cards
from engine.text import Term, Text, tr
from tables.hands import read_setting
from tables.setting import Setting, Suggestion
from tests.cogs.helpers import Scene, an_admin, arranging, play_person, speak
from tests.i18n.reading import foreign_words

#: The members' names, and the words no language translates that the answers hold.
NAMES = frozenset({"ann", "bob", "cy", "di", "ed", "flo", "poker", "club", "pyramid"})
#: "Standard (17 Karten)": its number is read apart, so "Standard" alone is no phrase.
TITLE_WORDS = frozenset({"standard"})
LOCALES = ["de", "zh-CN"]


def left(text: str, locale: str) -> list[str]:
    """The words of ``text`` not in the language of ``locale``."""
    return foreign_words(text, locale, NAMES | TITLE_WORDS)


def command(locale: str, name: str) -> str:
    """A slash command's name as the reader's client shows it."""
    return i18n.translate(locale, name, context=i18n.COMMAND)


def flushes() -> Suggestion:
    """A suggestion declaring three flushes, worth 6 points against each opponent."""
    setting = Setting(
        hands=(
            tuple(parse_cards("2h 5h 7h 9h Jh")),
            tuple(parse_cards("2s 5s 7s 9s Js")),
            tuple(parse_cards("2d 5d 7d 9d Jd")),
        ),
        automatic="three_flushes",
    )
    return Suggestion(setting, 6.0, exact=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_suggestions_automatic_points_and_command_read_in_the_language(locale: str) -> None:
    text = suggestion_text(flushes(), first=False, locale=locale)
    assert left(text, locale) == [], text
    hands = command(locale, "hands")
    assert f"`/{command(locale, 'arrange')} {hands}:`" in text
    automatic = i18n.localize(locale, tr("three flushes"))
    assert f"**{automatic}**" in text
    assert ("+6,00" if locale == "de" else "+6.00") in text


def test_a_suggestion_reads_as_before_in_english() -> None:
    text = suggestion_text(flushes(), first=False, locale=i18n.ENGLISH.discord)
    assert text == (
        f"`{flushes().setting.text}` Expected +6.00 points per opponent."
        " Declares the automatic **three flushes**.\nTake it as it is, or edit it: **Type hands**"
        " starts from it, or copy it into `/arrange hands:`."
    )


def test_a_term_reads_as_the_readers_client_names_it() -> None:
    text = tr(
        "`/{arrange} {hands} {opt_automatic}:` for {game}",
        arrange=Term("arrange"),
        hands=Term("hands"),
        opt_automatic=Term("automatic", "option"),
        game=Term("Casino Version", "choice"),
    )
    assert str(text) == "`/arrange hands automatic:` for Casino Version"
    german = i18n.localize("de", text)
    assert german.startswith(f"`/{command('de', 'arrange')} {command('de', 'hands')} ")
    assert german.endswith(i18n.translate("de", "Casino Version", context=i18n.CHOICE))


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_suggest_answer_and_a_typed_automatic_read_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    ann, spec, held = await arranging(scene, "standard")
    speak(monkeypatch, {ann.id: locale})
    suggested = await ann.slash(scene.channel, "arrange suggest")
    text = suggested.response.content
    assert suggested.ephemeral and left(text, locale) == [], text
    assert f"`/{command(locale, 'arrange')} {command(locale, 'hands')}:`" in text
    setting = read_setting(spec, held, text.split("`")[1], None)
    assert setting.hands


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_new_tables_game_and_no_table_read_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: locale}, server=locale)
    nothing = await ann.slash(scene.channel, "table status")
    assert left(nothing.response.content, locale) == [], nothing.response.content
    assert f"`/{command(locale, 'table')} {command(locale, 'create')}`" in nothing.response.content
    opened = await ann.slash(scene.channel, "table create", game="casino")
    said = [opened.response.content, *(m.content for m in opened.followups)]
    title = i18n.translate(locale, "Casino Version", context=i18n.CHOICE)
    assert any(title in text for text in said), said
    for text in said:
        assert left(text, locale) == [], text
    status = await ann.slash(scene.channel, "table status")
    assert title in status.response.content
    assert left(status.response.content, locale) == [], status.response.content


@pytest.mark.parametrize(
    # A Showdown played each: the quick lane plays it in German.
    "locale",
    [
        locale if locale == "de" else pytest.param(locale, marks=pytest.mark.slow)
        for locale in LOCALES
    ],
)
async def test_a_showdown_with_a_computer_and_its_replay_name_it_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    ann = scene.members[0]
    # The member's client speaks English (the test presses its buttons by their labels); the
    # channel's posts and the replay read in the language the server chose.
    chosen = await an_admin(scene).slash(scene.channel, "settings language", language=locale)
    assert chosen.acknowledged
    await ann.slash(scene.channel, "table create", game="standard")
    await ann.slash(scene.channel, "table addbot", level="casual")
    await ann.slash(scene.channel, "table start")
    await play_person(scene, ann)
    heading = i18n.localize(locale, tr("Showdown"))
    [posted] = [m for m in scene.channel.history() if m.content.startswith(f"**{heading}")]
    computer = i18n.localize(locale, tr("Computer {number}", number="1"))
    assert computer in posted.content
    assert left(posted.content, locale) == [], posted.content
    number = int(re.findall(r"\d+", posted.content.split("**")[1])[0])
    replay = await ann.slash(scene.channel, "replay", game=number)
    assert computer in replay.response.content
    assert left(replay.response.content, locale) == [], replay.response.content


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_table_closed_as_the_bot_cannot_post_says_why_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    reasons: list[Any] = []

    async def abandon(guild_id: int, channel_id: int, reason: str | Text) -> None:
        reasons.append(reason)

    monkeypatch.setattr(scene.bot.services.tables, "abandon", abandon)
    await scene.bot.close_lost_table(scene.guild.id, scene.channel.id)
    [reason] = reasons
    assert isinstance(reason, Text)
    assert str(reason) == "the bot can no longer post in its channel"
    assert left(i18n.localize(locale, reason), locale) == []


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_tables_refusal_names_its_game_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: locale}, server=locale)
    await ann.slash(scene.channel, "table create", game="standard")
    alone = await ann.slash(scene.channel, "table start")
    title = i18n.translate(locale, "Standard (17 cards)", context=i18n.CHOICE)
    assert title in alone.response.content
    assert left(alone.response.content, locale) == [], alone.response.content
