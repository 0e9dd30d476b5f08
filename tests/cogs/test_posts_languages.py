"""The tables' posts and DMs in their readers' languages: a DM in the Discord locale of its
player's last interaction (English for a player the bot never saw), a channel post in the
server's language (`/settings language`, else the server's preferred locale)."""

from __future__ import annotations

from typing import Any

import pytest

import i18n
from cogs.board import RulesButton
from cogs.publisher import DiscordPublisher
from engine.cards import parse_cards
from tables.events import (
    AchievementEarned,
    ArrangingOpened,
    CardsDealt,
    DeclarationsRevealed,
    GameCancelled,
    GameStarted,
    PlayerKicked,
    SeatResult,
    ShowdownSettled,
    TableAbandoned,
    TableClosed,
)
from tables.games import GAMES
from tests.cogs.helpers import (
    Scene,
    an_admin,
    board_message,
    declare_all,
    labels,
    speak,
    start_game,
)

GAME_ID = 77


def publisher_alone(scene: Scene) -> DiscordPublisher:
    """A publisher on the bot's client and storage (its locales kept as the bot keeps them)."""

    async def on_channel_lost(guild: int, channel: int) -> None:
        raise AssertionError("no channel is lost here")

    return DiscordPublisher(scene.bot, scene.bot.services.storage, on_channel_lost=on_channel_lost)


def title(locale: str) -> str:
    """The Showdown game's name as ``locale`` reads it (as its /commands choice names it)."""
    return i18n.translate(locale, GAMES["showdown"].title, context=i18n.CHOICE)


def dm(member: Any) -> str:
    return str(member.user.dm_channel.last_message.content)


async def test_each_players_dm_reads_in_the_language_of_their_last_interaction(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob, cy, di = scene.members[:4]
    speak(monkeypatch, {ann.id: "de", bob.id: "zh-CN", di.id: "fr"})
    # Any interaction tells the bot the player's locale; Cy never met the bot.
    for member in (ann, bob, di):
        assert (await member.slash(scene.channel, "help")).acknowledged
    assert await scene.bot.services.storage.locales.get(ann.id) == "de"
    publisher = publisher_alone(scene)
    guild, channel = scene.guild.id, scene.channel.id
    seated = (ann.id, bob.id, cy.id, di.id)
    cards = parse_cards("As Kd 2c")
    await publisher.publish(
        guild,
        channel,
        [
            GameStarted(GAME_ID, seated, dict.fromkeys(seated, 10)),
            *(CardsDealt(user, cards) for user in seated),
            ArrangingOpened(seated, 1e10, GAME_ID, "showdown"),
        ],
    )
    german, chinese, english, french = dm(ann), dm(bob), dm(cy), dm(di)
    assert german.startswith(f"**{title('de')}** in <#{channel}> auf **Poker Club**.\n")
    assert "Lege deine Hände <t:10000000000:R>:" in german
    assert "(oder `/legen hände:` im Kanal)" in german  # the commands as German Discord names them
    assert "Legst du nichts, legt der Tisch sie für dich." in german
    assert "\nDeine 3 Karten zum Kopieren:\n```\n" in german

    assert chinese.startswith(f"**{title('zh-CN')}**，位于 **Poker Club** 的 <#{channel}>。\n")
    assert "摆牌<t:10000000000:R>截止：" in chinese
    assert "（或在频道中用 `/摆牌 输入:`）" in chinese
    assert "\n你的 3 张牌（可复制）：\n```\n" in chinese

    assert french.startswith(f"**{title('fr')}** dans <#{channel}> sur **Poker Club**.\n")
    assert "Pose tes mains <t:10000000000:R> :" in french

    # Never seen: English, as before.
    assert english.startswith(f"**{title('en-US')}** in <#{channel}> on **Poker Club**.\n")
    assert "Set your hands <t:10000000000:R>: **Build hands** picks them card by card" in english
    assert "(or `/arrange hands:` in the channel)" in english
    assert "\nYour 3 cards, to copy:\n```\n" in english


async def test_a_closed_table_is_told_by_dm_in_each_players_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob, cy = scene.members[:3]
    speak(monkeypatch, {ann.id: "de", bob.id: "zh-CN"})
    for member in (ann, bob):
        assert (await member.slash(scene.channel, "help")).acknowledged
    publisher = publisher_alone(scene)
    reason = "the bot can no longer post in its channel"
    abandoned = TableAbandoned(
        "showdown", (ann.id, bob.id, cy.id), {ann.id: 20, bob.id: 1}, reason, GAME_ID
    )
    await publisher.publish(scene.guild.id, scene.channel.id, [abandoned])
    assert dm(ann) == (
        f"Dein Tisch **{title('de')}** auf **Poker Club** wurde geschlossen: {reason}."
        " Die 20 Chips, die du gesetzt hattest, sind zu dir zurückgekehrt."
    )
    assert dm(bob) == (
        f"你在 **Poker Club** 的 **{title('zh-CN')}** 牌桌已关闭：{reason}。"
        " 你投入的 1 筹码已退还给你。"
    )
    assert dm(cy) == f"Your **{title('en-US')}** table on **Poker Club** was closed: {reason}."


def settled(ann: int, bob: int) -> ShowdownSettled:
    """A showdown where Ann won 1,500 chips from Bob (both surrendered: nothing to draw)."""
    seats = (
        SeatResult(ann, 0, (), (), None, 1500, set_by="solver"),
        SeatResult(bob, 0, (), (), None, -1500),
    )
    return ShowdownSettled(
        GAME_ID,
        "showdown",
        seats,
        ((0, 0), (0, 0)),
        (ann, bob),
        {ann: 1500, bob: -1500},
        0,
        0,
        (),
    )


def channel_events(ann: int, bob: int) -> list[Any]:
    return [
        PlayerKicked(bob, ann),
        GameCancelled(GAME_ID, ann, {ann: 10, bob: 10}, "the host cancelled"),
        settled(ann, bob),
        AchievementEarned(ann, "first-win", "First win", "Win a game.", GAME_ID),
        TableClosed("No players are left at the table."),
    ]


async def test_channel_posts_read_in_the_language_chosen_for_the_server(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = scene.members[:2]
    boss = an_admin(scene)
    # The server's own language is English (simcord's default); its admin chooses French.
    assert scene.bot.get_guild(scene.guild.id).preferred_locale.value == "en-US"
    speak(monkeypatch, {ann.id: "de"})  # a player's own language does not matter here
    assert (await ann.slash(scene.channel, "help")).acknowledged
    assert (await boss.slash(scene.channel, "settings language", language="fr")).acknowledged
    publisher = publisher_alone(scene)
    await publisher.publish(scene.guild.id, scene.channel.id, channel_events(ann.id, bob.id))
    kicked, cancelled, showdown, earned, closed = scene.channel.history()[-5:]
    assert kicked.content == f"<@{bob.id}> a été retiré par <@{ann.id}>."
    assert cancelled.content == "La partie 77 a été annulée ; 20 jetons ont été rendus."
    assert showdown.content.splitlines() == [
        f"**Abattage, partie 77.** <@{ann.id}> +1\u202f500 jetons,"
        f" <@{bob.id}> \u22121\u202f500 jetons",
        f"Mains posées par la table à l'échéance : <@{ann.id}>.",
    ]
    assert earned.content == f"🏆 <@{ann.id}> a obtenu **First win** : Win a game."
    assert closed.content == "Table fermée : No players are left at the table."


async def test_channel_posts_follow_the_servers_own_language_unless_one_is_chosen(
    scene: Scene,
) -> None:
    german = scene.env.create_guild("Pokerrunde", preferred_locale="de")
    table = german.create_text_channel("pyramide")
    ann, bob = (german.add_member(member.user) for member in scene.members[:2])
    publisher = publisher_alone(scene)
    await publisher.publish(german.id, table.id, [settled(ann.id, bob.id)])
    assert table.last_message.content.startswith(
        f"**Showdown, Partie 77.** <@{ann.id}> +1.500 Chips, <@{bob.id}> \u22121.500 Chips\n"
    )
    # English still reads as it always did (numbers grouped), where nothing else is chosen.
    await publisher.publish(scene.guild.id, scene.channel.id, [settled(ann.id, bob.id)])
    assert scene.channel.last_message.content.splitlines() == [
        f"**Showdown, game 77.** <@{ann.id}> +1,500 chips, <@{bob.id}> \u22121,500 chips",
        f"Hands set by the table at the deadline: <@{ann.id}>.",
    ]
    # A language chosen with /settings language is read at once (kept in memory after).
    await scene.bot.services.storage.settings.set_language(german.id, "zh-CN")
    await publisher.publish(german.id, table.id, [TableClosed("No players are left.")])
    assert table.last_message.content == "牌桌已关闭：No players are left."


async def test_the_tables_message_follows_the_game_in_the_servers_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    boss = an_admin(scene)
    assert (await boss.slash(scene.channel, "settings language", language="de")).acknowledged
    players = await start_game(scene, "showdown", 2)
    await declare_all(scene, players)
    board = board_message(scene)
    lines = board.content.splitlines()
    assert lines[0].startswith(f"**{title('de')}**, Partie ")
    assert lines[1].startswith("Jetzt: Hände legen, per DM, endet <t:")
    assert (
        lines[2]
        == "Fertig: noch niemand. Warten auf: "
        + ", ".join(f"<@{member.id}>" for member in players)
        + "."
    )
    assert "Regeln" in labels(board)


async def test_a_phase_dm_fits_discords_limit_in_every_language_at_its_longest(
    scene: Scene,
) -> None:
    # The longest server name Discord allows, six players of six languages, every list of the
    # reveal full, and the 17 cards of a Standard game to copy.
    server = scene.env.create_guild("W" * 100)
    table = server.create_text_channel("pyramid")
    members = [server.add_member(member.user) for member in scene.members]
    seated = tuple(member.id for member in members)
    locales = [i18n.ENGLISH.discord, *(language.discord for language in i18n.LANGUAGES)]
    for member, locale in zip(members, locales, strict=True):
        await scene.bot.services.storage.locales.remember(member.id, locale)
    cards = parse_cards("As Ks Qs Js 10s 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh Qh Jh")
    revealed = DeclarationsRevealed(0, seated, seated, seated, seated, game_id=GAME_ID)
    await publisher_alone(scene).publish(
        server.id,
        table.id,
        [
            GameStarted(GAME_ID, seated, dict.fromkeys(seated, 10**9)),
            *(CardsDealt(user, cards) for user in seated),
            revealed,
            ArrangingOpened(seated, 1e10, GAME_ID, "standard"),
        ],
    )
    for member in members:
        content = dm(member)
        assert content.endswith("```")  # whole, to the cards to copy
        assert len(content) <= 2000


@pytest.mark.parametrize("locale", [language.discord for language in i18n.LANGUAGES])
def test_the_rules_buttons_label_is_translated_and_fits(locale: str) -> None:
    label = RulesButton(game="showdown", locale=locale).item.label
    assert label is not None and label != "Rules" and len(label) <= 80
