"""A whole game in three languages at once: two players each on a Discord in another language,
on a server set to a third (a German and a Chinese player on a French server, and so on until
every language has been a player's and a server's). Each reads every DM (its text, its buttons
and its pictures) and every answer in their own language, and every post in the channel (its
text, its buttons and its picture) is in the server's, from the lobby to the showdown."""

from __future__ import annotations

import functools
from typing import Any

import discord
import pytest

import cogs.publisher
import i18n
from cogs.pictures import channel_showdown
from cogs.showdown import showdown_text
from engine.text import Who, tr
from tables.events import Note, SeatResult, ShowdownSettled
from tables.events import Wager as TableWager
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
from tests.i18n.reading import WORD, foreign_words, pieces
from tests.render.helpers import Drawn
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


@functools.cache
def vocabulary(locale: str) -> frozenset[str]:
    """Every word of a language's texts (the message ids themselves for English)."""
    found = i18n.translations(i18n.language_of(locale)).texts
    if i18n.language_of(locale) == i18n.ENGLISH:
        texts = [msgid for _, msgid in i18n.translations(i18n.language_of("de")).texts]
    else:
        texts = [form for forms in found.values() for form in forms]
    return frozenset(
        word.lower() for text in texts for piece in pieces(text) for word in WORD.findall(piece)
    )


def english_words(text: str, locale: str) -> list[str]:
    """The words of ``text`` that are English and not of the language of ``locale``: for a
    picture, whose cells wrap a sentence where they must (so that its pieces are not the
    catalog's phrases)."""
    theirs, english = vocabulary(locale), vocabulary(i18n.ENGLISH.discord)
    return [
        word
        for word in WORD.findall(text)
        if word.lower() in english and word.lower() not in theirs | NAMES
    ]


#: The controls only a channel's post carries: the lobby's, the table message's, the showdown's.
CHANNEL_CONTROLS = ("pp:lobby:", "pp:hand:", "pp:rules:", "pp:review:", "pp:full:")


def channel_versions(scene: Scene, since: int = 0) -> list[list[str]]:
    """Every version of the channel's posts with controls that the bot sent since request
    ``since`` (posted, edited, or edited through the interaction that pressed one: the first
    version of the table's message is the Start press's answer), as the texts read in it."""
    found = []
    for request in scene.env.http_requests[since:]:
        body = request.json if isinstance(request.json, dict) else {}
        data = body.get("data", body) if isinstance(body.get("data"), dict) else body
        rows = data.get("components") or []
        children = [child for row in rows for child in row.get("components", [])]
        ids = [str(child.get("custom_id", "")) for child in children]
        if any(found_id.startswith(CHANNEL_CONTROLS) for found_id in ids):
            texts = [str(data.get("content") or "")]
            texts += [str(child.get("label") or "") for child in children]
            found.append(texts)
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
    # A picture's pieces: English words are found, a French word cut short is not.
    found = english_words("Your cards · Suite à trois cartes hauteur qua…", "fr")
    assert found == ["Your", "cards"]


#: (the first player's Discord, the second's, the server's language): each language is a
#: player's (Spanish and Latin American Spanish, read as Spain's, among them) and a server's.
#: A whole game each: the quick lane plays the first (three languages, one of them Chinese).
GAMES_IN_LANGUAGES = [
    pytest.param("de", "zh-CN", "fr", id="de+zh-CN@fr"),
    pytest.param("es-ES", "pt-BR", "de", id="es-ES+pt-BR@de", marks=pytest.mark.slow),
    pytest.param("fr", "es-419", "zh-CN", id="fr+es-419@zh-CN", marks=pytest.mark.slow),
    pytest.param("zh-CN", "de", "es-ES", id="zh-CN+de@es-ES", marks=pytest.mark.slow),
    pytest.param("pt-BR", "fr", "pt-BR", id="pt-BR+fr@pt-BR", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("first", "second", "server"), GAMES_IN_LANGUAGES)
async def test_a_casino_game_reads_in_each_players_language_and_the_servers(
    scene: Scene,
    monkeypatch: pytest.MonkeyPatch,
    drawn: list[Drawn],
    first: str,
    second: str,
    server: str,
) -> None:
    ann, bob = scene.members[:2]
    locales = {ann.id: first, bob.id: second}
    speak(monkeypatch, locales)
    #: The publisher's pictures: what each is, its language and every word drawn in it.
    pictures: list[tuple[str, str, list[str]]] = []

    async def drawing(render: Any, *args: Any, **kwargs: Any) -> Any:
        # Drawn here, one at a time, to know which picture each word was drawn in.
        before = len(drawn)
        made = render(*args, **kwargs)
        words = [piece.text for piece in drawn[before:]]
        pictures.append((render.__name__, kwargs.get("locale", ""), words))
        return made

    monkeypatch.setattr(cogs.publisher, "picture", drawing)
    monkeypatch.setattr(cogs.publisher, "batch_picture", drawing)
    boss = an_admin(scene)
    assert (await boss.slash(scene.channel, "settings language", language=server)).acknowledged
    # Their first interactions tell the bot their languages.
    assert (await ann.slash(scene.channel, "table create", game="casino")).acknowledged
    assert (await bob.slash(scene.channel, "table join")).acknowledged
    await scene.env.settle(timeout=SETTLE_S)
    lobby = lobby_of(scene)
    assert strays([lobby], server) == []
    if server == "fr":
        assert "(1 joueur ou plus)" in lobby.content  # the Casino Version deals to one
    started = await ann.click(lobby, label=button(lobby, server, "Start"))
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
            assert strays([board], server) == []
            assert i18n.translate(server, "Show my hand") in labels(board)
    else:
        raise AssertionError("the game did not end")

    for member in (ann, bob):
        read = member.user.dm_channel.history()
        assert len(read) == 2  # the declaration, then the hands to set
        said = [result.response.message for result in answers[member.id] if result.response]
        assert len(said) >= 2
        assert strays(read + said, locales[member.id]) == []
    # Each DM's picture in its reader's language, the showdown's in the channel's.
    assert sorted(locale for name, locale, _ in pictures if name == "hand_picture") == sorted(
        [first, first, second, second]
    )
    assert [locale for name, locale, _ in pictures if name == "channel_showdown"] == [server]
    for name, locale, words in pictures:
        assert words
        if name == "hand_picture":  # its title and its line, each whole
            assert foreign_words(" ".join(words), locale, NAMES) == []
        else:  # cut where the cells wrap them (or shorten them: "hauteur qua…")
            assert english_words(" ".join(words), locale) == []
    # Every version of every post with controls, each edit of the table's message included
    # (its first, the Start press's answer, too), and their buttons: the server's language.
    versions = channel_versions(scene)
    assert len(versions) >= 4  # the lobby, the table's message (and its edits), the showdown
    assert [
        (t, foreign_words(t, server, NAMES))
        for v in versions
        for t in v
        if foreign_words(t, server, NAMES)
    ] == []
    # Every post of the channel, the lobby to the showdown, and their buttons: the server's.
    posts = [m for m in scene.channel.history() if not m.flags.ephemeral]
    showdown = next(m for m in posts if any(i.startswith("pp:review:") for i in custom_ids(m)))
    assert showdown.attachments  # the showdown's picture
    assert i18n.translate(server, "Review") in labels(showdown)
    assert strays(posts, server) == []


async def test_a_showdown_note_names_its_player_once_where_the_language_puts_them(
    drawn: list[Drawn],
) -> None:
    short = tr(
        "{player} could cover only {available} chips, so the winners take {deficit} less"
        " (table stakes).",
        player=Who(2),
        available=3,
        deficit=7,
    )
    seats = (
        SeatResult(1, 0, (), (), None, 3, set_by="solver"),
        SeatResult(2, 0, (), (), None, -3),
    )
    event = ShowdownSettled(
        5,
        "showdown",
        seats,
        ((0, 0), (0, 0)),
        (1, 2),
        {1: 3, 2: -3},
        0,
        0,
        (),
        notes=(Note(short, 2),),
    )
    channel_showdown(event, {1: "Ada", 2: "Bo"}, locale="de")
    picture = " ".join(piece.text for piece in drawn)
    assert "Bo konnte nur 3 Chips decken" in picture
    assert "Bo Bo" not in picture
    assert english_words(picture, "de") == []
    # The channel's text names them once too, by mention.
    text = showdown_text(event, locale="zh-CN")
    assert text.count("<@2>") == 2  # their net, and the note
    assert foreign_words(text.splitlines()[-1], "zh-CN") == []


async def test_a_house_games_wagers_are_named_in_the_channels_language(
    drawn: list[Drawn],
) -> None:
    wagers = (TableWager("main bet", -5, "lost"), TableWager("3-card bonus", 5, "won"))
    seat = SeatResult(1, None, (), (), None, 0, (-5, 5), wagers=wagers)
    event = ShowdownSettled(6, "three-card", (seat,), (), (), {1: 0}, 0, 0, ())
    text = showdown_text(event, locale="fr")
    assert "\n<@1> : mise principale \u22125 (lost), Bonus 3 cartes +5 (won)" in text
    assert "\n<@1>: main bet \u22125 (lost), 3-card bonus +5 (won)" in showdown_text(event)
    channel_showdown(event, {1: "Ada"}, locale="fr")
    picture = [piece.text for piece in drawn]
    assert "Mise principale" in picture
    assert "Main bet" not in picture
