"""What the coach, /history, /profile, the ratings, the ledger, /evaluate, the challenge, the
settings and the tournaments say and draw, read in German and Chinese (and French) by members
whose Discord speaks them, through the commands themselves: no English word left, and the
pictures' words in the same language; a channel post in the server's language."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

import i18n
from cogs.chips import ledger_reason, ledger_text
from cogs.coach import review_text
from cogs.common import Mentions
from cogs.lifecycle import LifecycleCog
from engine.cards import parse_cards
from engine.text import Text, Who, tr, tr_plural
from storage.rows import LedgerEntry
from tables.review import Difference, Review, Way
from tests.cogs.helpers import (
    Scene,
    an_admin,
    play_out,
    play_person,
    showdowns,
    speak,
    start_game,
)
from tests.i18n.reading import foreign_words, pictured
from tests.render.helpers import Drawn
from tests.tables.helpers import quick_arranger

#: The members' names, and the words no language translates that the answers hold.
NAMES = frozenset({"ann", "bob", "cy", "di", "ed", "flo", "poker", "club", "pyramid"})
#: A game's title with a number in it ("Standard (17 Karten)") is read without its number, so
#: its words are no catalog's phrase alone: the German and French titles begin with this one.
TITLE_WORDS = frozenset({"standard"})


def left(text: str, locale: str) -> list[str]:
    """The words of ``text`` not in the language of ``locale``."""
    return foreign_words(text, locale, NAMES | TITLE_WORDS)


async def _reviewed_game(scene: Scene, game: str) -> int:
    """The first member plays a game of ``game`` against a computer: its number."""
    ann = scene.members[0]
    await ann.slash(scene.channel, "table create", game=game)
    await ann.slash(scene.channel, "table addbot", level="casual")
    await ann.slash(scene.channel, "table start")
    await play_person(scene, ann)
    [showdown] = showdowns(scene)
    return int(showdown.content.split("game ")[1].split(".")[0])


@pytest.mark.parametrize(
    # A game, its review and its history each: the quick lane reads them in German.
    "locale",
    [
        "de",
        pytest.param("zh-CN", marks=pytest.mark.slow),
        pytest.param("fr", marks=pytest.mark.slow),
    ],
)
async def test_the_review_and_history_read_in_the_players_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, drawn: list[Drawn], locale: str
) -> None:
    ann = scene.members[0]
    number = await _reviewed_game(scene, "standard")
    # In English first: the reading finds its words, English to a German or Chinese reader.
    english = (await ann.slash(scene.channel, "review", game=number)).response.content
    assert "Yours" in left(english, locale) and "review" in left(english, locale)
    speak(monkeypatch, {ann.id: locale})
    drawn.clear()
    reviewed = await ann.slash(scene.channel, "review", game=number)
    assert reviewed.ephemeral and reviewed.response.attachments
    text = reviewed.response.content
    assert left(text, locale) == [], text
    assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)
    history = (await ann.slash(scene.channel, "history")).response.content
    assert left(history, locale) == [], history


async def test_a_replay_follows_the_server_and_the_review_button_its_presser(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, drawn: list[Drawn]
) -> None:
    ann, bob = await start_game(scene, "standard", 2)
    await play_out(scene, [ann, bob], "timer")
    await scene.env.settle()
    [posted] = showdowns(scene)
    number = int(posted.content.split("game ")[1].split(".")[0])
    # A German member on a Chinese server: the replay is the channel's, in Chinese.
    speak(monkeypatch, {bob.id: "de", ann.id: "zh-CN"}, server="zh-CN")
    drawn.clear()
    replay = await bob.slash(scene.channel, "replay", game=number)
    assert not replay.ephemeral and replay.response.attachments
    assert left(replay.response.content, "zh-CN") == [], replay.response.content
    assert left(pictured(drawn, "zh-CN"), "zh-CN") == [], pictured(drawn, "zh-CN")
    # Review, pressed under the game's showdown: only to the presser, in German.
    drawn.clear()
    full = await bob.click(posted, label="Review")
    assert full.ephemeral and full.response.attachments
    assert left(full.response.content, "de") == [], full.response.content
    assert left(pictured(drawn, "de"), "de") == [], pictured(drawn, "de")


@pytest.mark.parametrize("locale", ["de", "zh-CN"])
async def test_profile_ratings_and_seasons_follow_the_servers_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, drawn: list[Drawn], locale: str
) -> None:
    players = await start_game(scene, "casino", 2)
    await play_out(scene, players, "timer")
    await scene.env.settle()
    ann, bob = players
    # Bob's Discord speaks English; the server chose its own language.
    speak(monkeypatch, {ann.id: locale}, server=locale)
    drawn.clear()
    shown = await bob.slash(scene.channel, "profile", player=ann.user)
    assert not shown.ephemeral and shown.response.attachments
    assert left(shown.response.content, locale) == [], shown.response.content
    assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)
    for command, options in (
        ("rating", {"player": ann.user}),
        ("season", {}),
        ("season", {"game": "casino"}),
        ("leaderboard", {}),
        ("leaderboard", {"by": "rating", "game": "casino"}),
        ("leaderboard", {"by": "net", "period": "week", "game": "casino"}),
    ):
        drawn.clear()
        said = await bob.slash(scene.channel, command, **options)
        assert not said.ephemeral
        assert left(said.response.content, locale) == [], (command, said.response.content)
        assert left(pictured(drawn, locale), locale) == [], (command, pictured(drawn, locale))
    # Ann's own /history, in her language.
    history = (await ann.slash(scene.channel, "history")).response.content
    assert left(history, locale) == [], history


@pytest.mark.parametrize("locale", ["de", "zh-CN"])
async def test_the_ledger_reads_its_stored_reasons_in_the_admins_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    players = await start_game(scene, "casino", 2)
    await play_out(scene, players, "timer")
    await scene.env.settle()
    boss = an_admin(scene)
    ann = players[0]
    await boss.slash(scene.channel, "chips grant", player=ann, amount=500)
    speak(monkeypatch, {boss.id: locale})
    shown = await boss.slash(scene.channel, "chips ledger", rows=12)
    assert shown.ephemeral
    text = shown.response.content
    assert left(text, locale) == [], text
    # Every kind of row a game writes is there: the stakes held, returned, and the result.
    kinds = {row.kind for row in await scene.bot.services.storage.players.ledger(scene.guild.id)}
    assert {"escrow", "release", "result", "grant"} <= kinds, kinds


@pytest.mark.parametrize(
    "reason",
    [
        "stake 2",
        "buy-in",
        "buy-in 3",
        "game 12: won 1500",
        "game 12: house lost 40",
        "grant by admin 77: for the quiz",
        "daily challenge prize: Showdown Version of 2026-11-26",
        "its channel #pyramid was deleted",
        "its thread was deleted",
        "tournament 4 cancelled",
    ],
)
@pytest.mark.parametrize("locale", ["de", "zh-CN", "fr"])
def test_a_stored_reason_reads_in_every_language_and_an_unknown_one_as_stored(
    reason: str, locale: str
) -> None:
    shown = ledger_reason(reason, locale)
    # An admin's note is theirs, in whatever language they wrote it.
    assert foreign_words(shown, locale, frozenset({"for", "the", "quiz", "pyramid"})) == [], shown
    # English: as stored, to the letter.
    assert ledger_reason(reason, "en-US") == reason
    assert ledger_reason("an older form: 3 chips", locale) == "an older form: 3 chips"


@pytest.mark.parametrize("locale", ["de", "zh-CN", "fr"])
def test_a_reviews_differences_name_the_hands_and_slots_in_the_language(locale: str) -> None:
    hands = tuple(parse_cards(text) for text in ("Kc 9d 7h", "As Qd Td 8c 5h", "Ah Kd Qc Ts 8d"))
    yours = Way(hands, ("King high", "Ace high", "Ace high"), at_table=2, expected=-14.2)
    best = Way(hands, ("Pair of aces (Q)", "Flush, king high", "Straight"), at_table=6)
    differences = (
        Difference(0, "", "King high, then 9 7", 2, "Pair of aces (Q)", 2),
        Difference(1, "", "Ace high, then Q T 8 5", 2, "Flush, king high (K 9 8 7 6)", 2),
    )
    text = review_text(
        Review(3, "standard", 1001, yours, best, differences=differences), locale=locale
    )
    assert left(text, locale) == [], text
    english = review_text(Review(3, "standard", 1001, yours, best, differences=differences))
    assert "Front: King high, then 9 7 +2 against Pair of aces (Q) +2" in english
    assert {"King", "high", "against"} <= set(left(english, locale))


@pytest.mark.parametrize("locale", ["de", "zh-CN"])
async def test_evaluate_names_the_hand_and_its_category_in_the_askers_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, drawn: list[Drawn], locale: str
) -> None:
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: locale})
    for cards in ("As Ks Qs Js W", "2c 2d 5h", "Kh Kd Ks 4c 4d"):
        drawn.clear()
        named = await ann.slash(scene.channel, "evaluate", cards=cards)
        assert left(named.response.content, locale) == [], named.response.content
        assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)


@pytest.mark.parametrize("locale", ["de", "zh-CN"])
async def test_the_challenge_reads_and_draws_in_the_players_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, drawn: list[Drawn], locale: str
) -> None:
    ann = scene.members[0]
    scene.bot.services.challenges.budget_s = 0.05
    speak(monkeypatch, {ann.id: locale})
    drawn.clear()
    shown = await ann.slash(scene.channel, "challenge play", game="standard")
    assert shown.ephemeral and shown.response.attachments
    assert left(shown.response.content, locale) == [], shown.response.content
    assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)
    challenges = scene.bot.services.challenges
    dealt = await challenges.deal("standard", challenges.today())
    setting = quick_arranger(dealt.spec, dealt.held)
    opened = await ann.click(shown.response.message, label=i18n.localize(locale, tr("Type hands")))
    assert opened.modal is not None
    drawn.clear()
    previewed = await ann.submit_modal(opened, {"hands": setting.text})
    assert left(previewed.response.content, locale) == [], previewed.response.content
    assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)
    drawn.clear()
    submit = i18n.localize(locale, tr("Submit these hands"))
    played = await ann.click(previewed.response.message, label=submit)
    assert left(played.response.content, locale) == [], played.response.content
    assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)
    drawn.clear()
    board = await ann.slash(scene.channel, "challenge results", game="standard")
    assert left(board.response.content, locale) == [], board.response.content
    assert left(pictured(drawn, locale), locale) == [], pictured(drawn, locale)


@pytest.mark.parametrize("locale", ["de", "zh-CN"])
async def test_the_settings_and_a_tournament_read_in_the_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    boss = an_admin(scene)
    speak(monkeypatch, {boss.id: locale}, server=locale)
    shown = await boss.slash(scene.channel, "settings show")
    assert left(shown.response.content, locale) == [], shown.response.content
    created = await boss.slash(
        scene.channel, "tournament create", game="standard", buy_in=100, computers="steady"
    )
    assert not created.ephemeral
    assert left(created.response.content, locale) == [], created.response.content


@pytest.mark.parametrize("locale", ["de", "zh-CN", "fr"])
def test_a_table_closes_for_a_reason_read_in_the_language(locale: str) -> None:
    client: Any = SimpleNamespace(get_guild=lambda guild_id: None, shard_count=1)
    cog = LifecycleCog(client, services=Any)
    reason = cog.lost(1, 2)
    assert isinstance(reason, Text)
    assert left(i18n.localize(locale, reason), locale) == []
    assert str(reason) == "the bot is no longer on that server"
    # The refund the closing wrote keeps its English; the ledger reads it back.
    assert left(ledger_reason(str(reason), locale), locale) == []


@pytest.mark.parametrize("locale", [i18n.ENGLISH.discord, *(x.discord for x in i18n.LANGUAGES)])
def test_the_longest_ledger_fits_a_message_in_every_language(locale: str) -> None:
    # A member's id (a snowflake); a row's, a game's or a tournament's number, and chips, at
    # a billion.
    user, big = 10**18, 10**9
    reasons = [
        f"grant by admin {user}: " + "x" * 200,
        "daily challenge prize: Showdown Version of 2026-11-26",
        f"game {big}: house lost {big}",
        "the bot can no longer post in #" + "y" * 100,
        f"unregistered from tournament {big}",
    ]
    moment = datetime(2026, 11, 26, tzinfo=UTC)
    entries = [
        LedgerEntry(big, user, "escrow", user, big, kind, -big, reasons[n % len(reasons)], moment)
        for n, kind in enumerate(["escrow", "release", "result", "refund", "grant", "take"] * 2)
    ]
    text = ledger_text(entries, user, locale=locale)
    assert len(text) <= 2_000, (locale, len(text))
    # Whole rows, the newest; the heading counts those shown.
    shown = len(text.splitlines()) - 1
    assert shown >= 10, (locale, shown)
    assert text.splitlines()[0] == i18n.localize(
        locale,
        tr_plural(
            "The ledger of {player}'s balance: the latest {count} row, newest first.",
            "The ledger of {player}'s balance: the latest {count} rows, newest first.",
            shown,
            player=Who(user),
        ),
        Mentions(locale),
    )
