"""The answers a player reads, and the buttons, menus and forms under them, in their own
language, while a post in the server's channel follows the server's; and everything labelled in
every language within Discord's limits at the longest inputs."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import i18n
from cogs.arrange import HandsModal
from cogs.challenge_hands import ChallengeModal
from cogs.common import say
from cogs.lobby import lobby_text, lobby_view
from engine.errors import GameError
from engine.text import tr
from tables.challenge import CHALLENGE_GAMES
from tables.events import Lobby
from tables.games import GAMES
from tables.hands import read_setting
from tests.cogs.helpers import (
    Scene,
    declare_all,
    labels,
    open_table,
    speak,
    the_table,
)
from tests.cogs.views import (
    BIG_GAME,
    BIG_ID,
    INPUT_LABEL,
    INPUT_PLACEHOLDER,
    MESSAGE,
    MODAL_TITLE,
    builder_views,
    every_view,
    form_keeps_to_discords_limits,
    keeps_to_discords_limits,
)
from tests.tables.helpers import quick_arranger

LOCALES = [language.discord for language in (i18n.ENGLISH, *i18n.LANGUAGES)]
#: The longest game title a form or a message names.
LONGEST_TITLE = max((spec.title for spec in GAMES.values()), key=len)


def said(locale: str, text: Any) -> str:
    return i18n.localize(locale, text)


def button_labels(view: discord.ui.View) -> list[str]:
    """The labels of a view's buttons (restart-proof controls hold theirs in ``item``)."""
    items = [getattr(child, "item", child) for child in view.children]
    return [item.label for item in items if isinstance(item, discord.ui.Button) and item.label]


# ----- Discord's limits in every language ----------------------------------------------------


@pytest.mark.parametrize(
    # Every view of every game each: the quick lane checks English and Chinese.
    "locale",
    [
        locale if locale in ("en-US", "zh-CN") else pytest.param(locale, marks=pytest.mark.slow)
        for locale in LOCALES
    ],
)
def test_every_view_fits_discord_in_every_language(locale: str) -> None:
    for name, view in every_view(locale):
        keeps_to_discords_limits(f"{locale} {name}", view)
    for name, _, text in builder_views(locale):
        assert len(text) <= MESSAGE, (locale, name)
    if locale != i18n.ENGLISH.discord:
        # The views are labelled in the language asked for, not in English.
        assert button_labels(lobby_view(locale=locale)) == [
            said(locale, tr(label)) for label in ("Join", "Leave", "Start", "Add computer")
        ]
        assert "Join" not in button_labels(lobby_view(locale=locale))


@pytest.mark.parametrize("locale", LOCALES)
def test_every_form_fits_discord_in_every_language(locale: str) -> None:
    draft = " | ".join(["Ks Kh Kd Kc W"] * 6) + " || 2c 3d 4h"
    for spec in GAMES.values():
        form_keeps_to_discords_limits(
            HandsModal(BIG_ID, BIG_ID, BIG_GAME, BIG_ID, spec=spec, draft=draft, locale=locale)
        )
    for spec in CHALLENGE_GAMES:
        form_keeps_to_discords_limits(
            ChallengeModal(spec.name, "9999-12-31", draft=draft, locale=locale)
        )
    # Whole, not cut to fit: the forms cut their texts only as a last resort.
    for label in ("Hands, weakest or strongest first, split by |", "Automatic (optional)"):
        assert len(said(locale, tr(label))) <= INPUT_LABEL, (locale, label)
    assert len(said(locale, tr("e.g. three full houses"))) <= INPUT_PLACEHOLDER
    for title in ("Your hands: {game}", "Challenge: {game}"):
        named = [spec.title for spec in (*GAMES.values(), *CHALLENGE_GAMES)]
        longest = max(len(said(locale, tr(title, game=game))) for game in named)
        assert longest <= MODAL_TITLE, (locale, title, longest)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_lobby_fits_a_message_in_every_language(locale: str) -> None:
    computers = tuple((-number, "strong") for number in range(1, 6))
    for name, spec in GAMES.items():
        seated = (BIG_ID, *(user for user, _ in computers))[: spec.max_players]
        lobby = Lobby(
            name,
            10**9,
            spec.max_players,
            BIG_ID,
            seated,
            computers[: len(seated) - 1],
            computer_seats=5,
            practice=True,
        )
        text = lobby_text(lobby, locale=locale)
        assert len(text) <= MESSAGE, (locale, name)
        # A computer is named in the reader's language.
        assert said(locale, tr("Computer {number}", number="1")) in text


def test_every_label_of_a_view_is_translated_in_every_language() -> None:
    for language in i18n.LANGUAGES:
        # The rules cards' pages and the table's message are labelled by their own parts.
        english = {
            label
            for name, view in every_view()
            if "rules page" not in name and "board" not in name
            for label in button_labels(view)
        }
        found = i18n.translations(language)
        assert all(found.has(label) for label in english - {"Joker"}), language


# ----- a German and a Chinese member, on a French server ---------------------------------------


async def test_the_lobbys_answers_are_the_readers_and_the_lobby_the_servers(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = scene.members[:2]
    speak(monkeypatch, {ann.id: "de", bob.id: "zh-CN"}, server="fr")
    created = await ann.slash(scene.channel, "table create", game="casino")
    title = GAMES["casino"].title
    assert created.ephemeral
    assert (
        created.response.content
        == f"Du hast hier einen {i18n.translate('de', title, context=i18n.CHOICE)}-Tisch eröffnet."
    )
    # The lobby is a post in the channel: in the server's language, French.
    [lobby] = [m for m in scene.channel.history() if m.components]
    assert labels(lobby) == ["Rejoindre", "Quitter", "Lancer", "Ajouter un ordinateur"]
    french = i18n.translate("fr", title, context=i18n.CHOICE)  # as /commands name the game
    assert lobby.content.startswith(f"Table **{french}**, ante ")
    joined = await bob.click(lobby, label="Rejoindre")
    assert joined.acknowledged
    lobby = next(m for m in scene.channel.history() if m.id == lobby.id)
    assert f"Assis : <@{ann.id}>, <@{bob.id}>" in lobby.content.splitlines()
    assert "Rejoindre" in labels(lobby)
    status = await bob.slash(scene.channel, "table status")
    assert status.ephemeral
    assert "已入座（2/" in status.response.content
    assert "阶段：大厅；已玩局数：0。" in status.response.content.splitlines()
    added = await ann.slash(scene.channel, "table addbot")
    assert added.response.content == "Ein Computer sitzt am Tisch."
    left = await bob.slash(scene.channel, "table leave")
    assert left.response.content == "你已离开牌桌。"


async def test_the_balance_is_the_readers_in_their_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = scene.members[:2]
    speak(monkeypatch, {ann.id: "de", bob.id: "zh-CN"}, server="fr")
    german = await ann.slash(scene.channel, "balance")
    players = scene.bot.services.storage.players
    chips = (await players.get_or_create(scene.guild.id, ann.id)).balance
    assert chips >= 1000  # written with the language's grouping
    assert german.response.content == (
        f"<@{ann.id}> hat **{i18n.format_number('de', chips)}** Chips."
    )
    chinese = await bob.slash(scene.channel, "balance", player=ann)
    assert (
        chinese.response.content
        == f"<@{ann.id}> 有 **{i18n.format_number('zh-CN', chips)}** 筹码。"
    )
    english = await scene.members[2].slash(scene.channel, "balance", player=ann)
    assert english.response.content == f"<@{ann.id}> has **{chips:,}** chips."


async def test_setting_hands_answers_in_the_readers_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = scene.members[:2]
    speak(monkeypatch, {ann.id: "de", bob.id: "zh-CN"}, server="fr")
    players = await open_table(scene, "casino", 2)
    started = await ann.slash(scene.channel, "table start")
    assert started.response.content == "Ausgeteilt. Die Karten kommen per DM."
    await declare_all(scene, players)
    table = await the_table(scene)
    spec = table.spec
    # The builder, typed: its text, its buttons and its menu in German.
    built = await ann.slash(scene.channel, "arrange build")
    assert built.ephemeral
    assert built.response.content.startswith(
        f"**Deine Hände bauen** ({i18n.translate('de', spec.title, context=i18n.CHOICE)})"
    )
    assert labels(built.response.message) == [
        "Letzte Hand zurück",
        "Neu beginnen",
        "Absenden",
    ] or labels(built.response.message) == [
        "Mit dem Vorschlag beginnen",
        "Letzte Hand zurück",
        "Neu beginnen",
        "Absenden",
    ]
    menus = [
        child
        for row in built.response.message.components
        for child in row.children
        if isinstance(child, discord.SelectMenu)
    ]
    assert menus and menus[0].placeholder.startswith("Karten für: ")
    chinese = await bob.slash(scene.channel, "arrange build")
    assert chinese.response.content.startswith(
        f"**组建你的手牌**（{i18n.translate('zh-CN', spec.title, context=i18n.CHOICE)}）"
    )
    # The hands are named in Chinese too ("Hand 1" is the rules' English name).
    assert "现在选择 **第 1 手**" in chinese.response.content
    # A card nobody can read: the engine's sentence, in the reader's language.
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, ann.id)
    with pytest.raises(GameError) as caught:
        read_setting(spec, held, "As | Zz", None)
    typo = await ann.slash(scene.channel, "arrange hands", hands="As | Zz")
    assert typo.ephemeral and typo.response.content == say(caught.value, "de")
    # The solver's suggestion, with Take it and Type hands.
    suggested = await ann.slash(scene.channel, "arrange suggest")
    assert (
        "\nÜbernimm ihn so oder bearbeite ihn: **Hände eintippen** startet davon, oder kopiere ihn"
        " in `/legen hände:`." in suggested.response.content
    )
    assert labels(suggested.response.message) == ["Übernehmen", "Hände eintippen"]
    # Typed hands: a preview, then set, in Chinese.
    setting = quick_arranger(
        spec, await scene.tables.hand(scene.guild.id, scene.channel.id, bob.id)
    )
    options = {"automatic": setting.automatic} if setting.automatic else {}
    preview = await bob.slash(scene.channel, "arrange hands", hands=setting.text, **options)
    assert preview.response.content.startswith("预览：`")
    assert preview.response.content.endswith("按 **确定这些手牌** 打出这些手牌。")
    assert labels(preview.response.message) == ["确定这些手牌", "输入手牌"]
    done = await bob.click(preview.response.message, label="确定这些手牌")
    assert done.response.content.startswith("你的手牌已提交：`")
    assert done.response.content.endswith("。在所有人完成前你可以更换。")
