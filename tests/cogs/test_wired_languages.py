"""A whole game in three languages at once: a German and a Chinese player on a server set to
French. Each reads every DM (its text and its buttons) in their own language, and every post in
the channel (its text and its buttons) is French, from the lobby to the showdown."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import cogs.publisher
import i18n
from tables.phase import Phase
from tests.cogs.helpers import (
    SETTLE_S,
    Scene,
    an_admin,
    board_message,
    custom_ids,
    labels,
    speak,
    the_table,
)
from tests.i18n.reading import foreign_words
from tests.tables.helpers import quick_arranger

#: Words no language translates: the members' and the server's names, the game's own name.
NAMES = frozenset({"ann", "bob", "boss", "pyramid", "poker", "club"})


def button(message: Any, locale: str, english: str) -> str:
    """The label of ``message``'s button ``english`` as ``locale`` reads it (found there)."""
    label = i18n.translate(locale, english)
    assert label in labels(message), (label, labels(message))
    return label


def words_read(message: Any) -> list[str]:
    """The texts of a message a member reads: its content, its buttons' labels and its menus'
    placeholders and options."""
    texts = [message.content or ""]
    for row in message.components:
        for child in row.children:
            if isinstance(child, discord.Button):
                texts.append(child.label or "")
            elif isinstance(child, discord.SelectMenu):
                texts.append(child.placeholder or "")
                texts.extend(f"{o.label} {o.description or ''}" for o in child.options)
    return texts


def strays(messages: list[Any], locale: str) -> list[tuple[str, list[str]]]:
    """Each text of ``messages`` with words outside the language of ``locale``."""
    found = []
    for message in messages:
        for text in words_read(message):
            foreign = foreign_words(text, locale, NAMES)
            if foreign:
                found.append((text, foreign))
    return found


def lobby_of(scene: Scene) -> Any:
    """The newest channel message with the lobby's Start button."""
    return next(m for m in reversed(scene.channel.history()) if "pp:lobby:start" in custom_ids(m))


async def test_reading_finds_the_english_words_of_an_english_text() -> None:
    english = "Set your hands <t:10000000000:R>: **Build hands** picks them card by card."
    assert foreign_words(english, "de", NAMES) == [
        "Set",
        "your",
        "hands",
        "Build",
        "hands",
        "picks",
        "them",
        "card",
        "by",
        "card",
    ]
    assert foreign_words(english, "fr", NAMES)
    assert foreign_words(i18n.translate("de", "Show my hand"), "de", NAMES) == []


async def test_a_casino_game_reads_in_each_players_language_on_a_french_server(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = scene.members[:2]
    locales = {ann.id: "de", bob.id: "zh-CN"}
    speak(monkeypatch, locales)
    drawn: list[tuple[str, str, str]] = []  # each picture: what it is, its language, its line

    def spy(draw: Any) -> Any:
        async def drawing(render: Any, *args: Any, **kwargs: Any) -> Any:
            drawn.append((render.__name__, kwargs.get("locale", ""), kwargs.get("subtitle", "")))
            return await draw(render, *args, **kwargs)

        return drawing

    monkeypatch.setattr(cogs.publisher, "picture", spy(cogs.publisher.picture))
    monkeypatch.setattr(cogs.publisher, "batch_picture", spy(cogs.publisher.batch_picture))
    boss = an_admin(scene)
    assert (await boss.slash(scene.channel, "settings language", language="fr")).acknowledged
    # Their first interactions tell the bot their languages.
    assert (await ann.slash(scene.channel, "table create", game="casino")).acknowledged
    assert (await bob.slash(scene.channel, "table join")).acknowledged
    await scene.env.settle(timeout=SETTLE_S)
    lobby = lobby_of(scene)
    assert strays([lobby], "fr") == []
    started = await ann.click(lobby, label=button(lobby, "fr", "Start"))
    assert started.acknowledged
    await scene.env.settle(timeout=SETTLE_S)

    #: What each player read in answer to their presses and commands, as the game went.
    answers: dict[int, list[Any]] = {ann.id: [], bob.id: []}
    for _ in range(10):  # a declaration, then the hands: a few rounds at most
        table = await the_table(scene)
        if table is None or not table.in_game:
            break
        for member in (ann, bob):
            if member.id not in table.waiting_for():
                continue
            locale = locales[member.id]
            dm = member.user.dm_channel.last_message
            if table.phase is Phase.DECLARING:
                pressed = await member.user.click(dm, label=button(dm, locale, "Play"))
                assert pressed.acknowledged
                answers[member.id].append(pressed)
            elif member is ann:  # the DM's Suggest, then Take it
                shown = await member.user.click(dm, label=button(dm, locale, "Suggest"))
                assert shown.acknowledged
                suggestion = shown.response.message
                taken = await member.user.click(
                    suggestion, label=button(suggestion, locale, "Take it")
                )
                assert taken.acknowledged
                answers[member.id] += [shown, taken]
            else:  # typed in the channel: a preview, then Set these hands
                held = await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)
                setting = quick_arranger(table.spec, held)
                options = {"automatic": setting.automatic} if setting.automatic else {}
                preview = await member.slash(
                    scene.channel, "arrange hands", hands=setting.text, **options
                )
                assert preview.acknowledged
                shown = preview.response.message
                confirmed = await member.click(
                    shown, label=button(shown, locale, "Set these hands")
                )
                assert confirmed.acknowledged
                answers[member.id] += [preview, confirmed]
        await scene.env.settle(timeout=SETTLE_S)
        if (table := await the_table(scene)) is not None and table.in_game:
            # The table's message, at each step, with Show my hand under it.
            board = board_message(scene)
            assert strays([board], "fr") == []
            assert i18n.translate("fr", "Show my hand") in labels(board)
    else:
        raise AssertionError("the game did not end")

    for member in (ann, bob):
        read = member.user.dm_channel.history()
        assert len(read) == 2  # the declaration, then the hands to set
        said = [result.response.message for result in answers[member.id] if result.response]
        assert len(said) >= 2
        assert strays(read + said, locales[member.id]) == []
    # Each DM's picture in its reader's language, the showdown's in the channel's.
    dealt = {(locale, line) for name, locale, line in drawn if name == "hand_picture"}
    assert {locale for locale, _ in dealt} == {"de", "zh-CN"}
    for locale, line in dealt:
        assert line and foreign_words(line, locale, NAMES) == []
    assert [locale for name, locale, _ in drawn if name == "channel_showdown"] == ["fr"]
    posts = [m for m in scene.channel.history() if not m.flags.ephemeral]
    showdown = next(m for m in posts if any(i.startswith("pp:review:") for i in custom_ids(m)))
    assert showdown.attachments  # the showdown's picture
    assert i18n.translate("fr", "Review") in labels(showdown)
    assert strays(posts, "fr") == []
