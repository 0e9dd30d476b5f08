"""The daily challenge through the real bot: the same cards on two servers, one submission,
scores against par as the engine counts them, a board hidden until played, a restart between
the deal and the submission, and the event queued for the features that listen."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.builder import held_indices
from cogs.challenge_hands import against_par, preview_sentence
from engine.challenge import score_against
from engine.errors import GameError
from engine.scoring import PlayedHands
from render.style import signed
from tables.challenge import ChallengeDay, challenge_game, ranked
from tables.hands import read_setting
from tables.rules.pyramid import PyramidRules, automatic_named
from tables.setting import Setting
from tests.cogs.helpers import DIGITS, Scene, an_admin, chosen, labels
from tests.render.helpers import Drawn
from tests.tables.helpers import quick_arranger

QUICK_S = 0.05


def _quick(scene: Scene) -> None:
    """The solver's time for a day's settings, cut for the tests (the store keeps them)."""
    scene.bot.services.challenges.budget_s = QUICK_S


async def _dealt(scene: Scene, game: str) -> ChallengeDay:
    challenges = scene.bot.services.challenges
    return await challenges.deal(game, challenges.today())


async def _play(scene: Scene, member: Any, channel: Any, game: str) -> Any:
    shown = await member.slash(channel, "challenge play", game=game)
    assert shown.ephemeral and shown.response.attachments
    return shown


async def _typed(member: Any, message: Any, setting: Setting) -> tuple[Any, Any]:
    """Type the hands into the form (previewed, nothing stored), then Submit these hands."""
    opened = await member.click(message, label="Type hands")
    assert opened.modal is not None
    typed = {"hands": setting.text}
    if any(row["components"][0]["custom_id"] == "automatic" for row in opened.modal["components"]):
        typed["automatic"] = setting.automatic or ""
    shown = await member.submit_modal(opened, typed)
    assert shown.response.content == str(preview_sentence(setting)), shown.response.content
    played = await member.click(shown.response.message, label="Submit these hands")
    return shown, played


def _confirmed(dealt: ChallengeDay, setting: Setting) -> Setting:
    """A previewed setting as Submit these hands carries it (the cards left over discarded)."""
    return chosen(dealt.held, held_indices(dealt.held, setting.hands), setting.automatic)


def _engine_points(dealt: ChallengeDay, setting: Setting) -> int:
    """The points of a setting against the day's other seats, counted by the engine directly."""
    rules = PyramidRules(dealt.spec)
    mine = PlayedHands("me", rules.values(dealt.held, setting), automatic_named(setting.automatic))
    others = [
        PlayedHands(str(i), rules.values(cards, s), automatic_named(s.automatic))
        for i, (cards, s) in enumerate(dealt.others)
    ]
    return score_against(rules.variant, mine, others).points


async def test_two_servers_see_the_same_cards_and_a_second_submission_is_refused(
    scene: Scene,
) -> None:
    _quick(scene)
    ann = scene.members[0]
    other = scene.env.create_guild("Card Room")
    lounge = other.create_text_channel("lounge")
    gus = other.add_member(scene.env.create_user("gus"))
    # The tests' bot syncs its commands to one server; the other gets them as a global sync would.
    scene.bot.tree.copy_global_to(guild=discord.Object(other.id))
    await scene.bot.tree.sync(guild=discord.Object(other.id))
    here = await _play(scene, ann, scene.channel, "standard")
    there = await _play(scene, gus, lounge, "standard")
    dealt = await _dealt(scene, "standard")
    cards = " ".join(str(card) for card in dealt.held)
    assert here.response.content.splitlines()[-1] == there.response.content.splitlines()[-1]
    assert all(card in here.response.content for card in cards.split())
    setting = quick_arranger(dealt.spec, dealt.held)
    shown, played = await _typed(ann, here.response.message, setting)
    setting = _confirmed(dealt, setting)
    points = _engine_points(dealt, setting)
    assert dealt.par_points == _engine_points(dealt, dealt.par)
    assert played.response.content == (
        f"Submitted: `{setting.text}`. You scored **{points}** points against par's "
        f"**{dealt.par_points}**: {against_par(points - dealt.par_points)}. "
        "Streak: **1** day.\nSee the server's board with `/challenge results`."
    )
    assert played.response.attachments
    # The preview's button again, or Type hands: one submission a day.
    refused = await ann.click(shown.response.message, label="Submit these hands")
    assert refused.ephemeral
    assert refused.response.content == (
        f"You have already played today's {dealt.spec.title} challenge: one submission a day."
        " See how you did with `/challenge results`."
    )
    again = await ann.click(here.response.message, label="Type hands")
    assert again.modal is None and again.response.content == refused.response.content
    replay = await ann.slash(scene.channel, "challenge play", game="standard")
    assert replay.response.content == refused.response.content
    stored = await scene.bot.services.challenges.play("standard", dealt.day, ann.id)
    assert stored is not None and stored.points == points


async def test_a_malformed_hand_is_refused_with_the_engines_sentence(scene: Scene) -> None:
    _quick(scene)
    ann = scene.members[0]
    shown = await _play(scene, ann, scene.channel, "showdown")
    opened = await ann.click(shown.response.message, label="Type hands")
    dealt = await _dealt(scene, "showdown")
    with pytest.raises(GameError) as why:
        read_setting(dealt.spec, dealt.held, "As Ks")
    refused = await ann.submit_modal(opened, {"hands": "As Ks"})
    assert refused.response.content == str(why.value)
    assert await scene.bot.services.challenges.play("showdown", dealt.day, ann.id) is None


async def test_the_builder_picks_cards_from_menus_and_previews_before_the_one_submission(
    scene: Scene,
) -> None:
    _quick(scene)
    ann = scene.members[0]
    shown = await _play(scene, ann, scene.channel, "showdown")
    assert labels(shown.response.message) == ["Build hands", "Type hands"]
    dealt = await _dealt(scene, "showdown")
    held, setting = dealt.held, dealt.par
    started = await ann.click(shown.response.message, label="Build hands")
    assert started.ephemeral
    builder = started.response.message
    # No suggestion in the challenge: par is the solver's.
    assert "Start from the suggestion" not in labels(builder)
    slots = [sorted(slot) for slot in held_indices(held, setting.hands)]
    for slot in slots:
        picked = await ann.select(builder, [DIGITS[i] for i in slot])
        assert picked.acknowledged and not picked.response.content.startswith("⚠")
    assert picked.response.content.splitlines()[-1].endswith(
        "Press **Submit** to preview them (the submission after that is final)."
    )
    built = chosen(held, slots)
    previewed = await ann.click(builder, label="Submit")
    assert previewed.response.content == str(preview_sentence(built))
    assert previewed.response.attachments
    assert "points" not in previewed.response.content  # no points before the submission
    assert await scene.bot.services.challenges.play("showdown", dealt.day, ann.id) is None
    played = await ann.click(previewed.response.message, label="Submit these hands")
    points = _engine_points(dealt, built)
    assert played.response.content.startswith(
        f"Submitted: `{built.text}`. You scored **{points}** points against par's "
        f"**{dealt.par_points}**: {against_par(points - dealt.par_points)}."
    )
    stored = await scene.bot.services.challenges.play("showdown", dealt.day, ann.id)
    assert stored is not None and stored.points == points
    # The builder is done with once submitted: any step reads the one sentence.
    late = await ann.click(builder, label="Undo last hand")
    assert late.response.content == (
        "You have already played today's Showdown Version challenge: one submission a day."
        " See how you did with `/challenge results`."
    )


async def test_the_board_is_hidden_until_played_and_shown_after_the_day(scene: Scene) -> None:
    _quick(scene)
    ann, bob = scene.members[:2]
    shown = await _play(scene, ann, scene.channel, "casino")
    dealt = await _dealt(scene, "casino")
    hidden = await bob.slash(scene.channel, "challenge results", game="casino")
    assert hidden.ephemeral
    assert hidden.response.content == (
        f"The board of today's {dealt.spec.title} challenge is shown to players who have played"
        " it (`/challenge play`), and to everyone once the day is over (UTC)."
    )
    await _typed(ann, shown.response.message, dealt.par)
    board = await ann.slash(scene.channel, "challenge results", game="casino")
    assert board.response.content.splitlines()[:2] == [
        f"**{dealt.spec.title} challenge, {dealt.day}** (par: {dealt.par_points} points)",
        f"1. <@{ann.id}> 0 (par) ({dealt.par_points} points)",
    ]
    assert board.response.attachments  # yours beside par
    assert "Across every server: **1** player, median **0**" in board.response.content
    await scene.env.advance_time(24 * 3600)
    after = await bob.slash(scene.channel, "challenge results", game="casino", date=dealt.day)
    assert f"1. <@{ann.id}> 0 (par)" in after.response.content
    assert not after.response.attachments  # bob did not play it
    late = await bob.slash(scene.channel, "challenge play", game="casino")
    assert late.response.attachments  # a new day, a new deal
    assert (await _dealt(scene, "casino")).day != dealt.day


async def test_a_restart_between_the_deal_and_the_submission_loses_nothing(scene: Scene) -> None:
    _quick(scene)
    ann = scene.members[0]
    shown = await _play(scene, ann, scene.channel, "no-surrender")
    before = await _dealt(scene, "no-surrender")
    await scene.restart()
    after = await _dealt(scene, "no-surrender")
    assert after == before  # read back from the store, not solved again
    setting = quick_arranger(after.spec, after.held)
    _, played = await _typed(ann, shown.response.message, setting)
    assert played.response.content.startswith(f"Submitted: `{_confirmed(after, setting).text}`.")
    assert await scene.bot.services.challenges.play("no-surrender", after.day, ann.id)


async def test_a_play_queues_its_event_and_the_channel_shows_nothing(scene: Scene) -> None:
    _quick(scene)
    ann = scene.members[0]
    posted = len(scene.channel.history())
    shown = await _play(scene, ann, scene.channel, "showdown")
    dealt = await _dealt(scene, "showdown")
    await _typed(ann, shown.response.message, dealt.par)
    await scene.bot.services.tables.outbox.flush()
    await scene.env.settle()
    # Spoiler-safe: nothing of the cards or the score in the channel, only the achievements the
    # play earned (a first play earns one) announced as any other.
    said = [m.content for m in scene.channel.history()[posted:]]
    assert said and all(line.startswith("🏆 ") for m in said for line in m.splitlines()), said
    database = scene.bot.services.storage.database
    # The event was queued in this channel and every lane (the statistics' too) is past it.
    lanes = await database.fetchall(
        "SELECT subscriber, position FROM outbox_positions WHERE guild_id = ? AND channel_id = ?",
        (scene.guild.id, scene.channel.id),
    )
    assert lanes and all(position > 0 for _, position in lanes), lanes
    left = await scene.bot.services.storage.outbox.pending(scene.guild.id, scene.channel.id)
    assert left == []


async def test_an_admin_sets_the_challenge_channel(scene: Scene) -> None:
    ann = an_admin(scene)
    shown = await ann.slash(scene.channel, "settings challenge")
    assert shown.response.content == (
        "The daily challenge is not announced; name a channel to announce it there.\n"
        "The daily challenge has no prize here (`prize:` sets one)."
    )
    set_ = await ann.slash(scene.channel, "settings challenge", channel=scene.channel)
    assert set_.response.content == (
        f"Each day's challenge and yesterday's top three will be announced in "
        f"<#{scene.channel.id}>."
    )
    assert await scene.bot.services.storage.challenges.channel(scene.guild.id) == scene.channel.id


async def _past_midnight(scene: Scene) -> None:
    """The virtual clock a few seconds past the next UTC midnight: a new day's deals."""
    await scene.env.advance_time(scene.bot.services.challenges.until_tomorrow() + 5)
    await scene.env.settle()


def _announcements(channel: Any) -> list[str]:
    return [
        message.content
        for message in channel.history()
        if message.content.startswith("**Today's challenge is dealt**")
    ]


async def test_the_challenge_channel_hears_of_each_day_and_yesterdays_top_three_once(
    scene: Scene,
) -> None:
    _quick(scene)
    boss = an_admin(scene)
    news = scene.guild.create_text_channel("challenge-news")
    await boss.slash(scene.channel, "settings challenge", channel=news)
    dealt = await _dealt(scene, "showdown")
    players = scene.members[:4]
    for number, member in enumerate(players):
        shown = await _play(scene, member, scene.channel, "showdown")
        way = dealt.par if number == 0 else quick_arranger(dealt.spec, dealt.held)
        await _typed(member, shown.response.message, way)
    await scene.restart()  # set during the day: told from the next one, even after a restart
    await scene.env.settle()
    _quick(scene)
    assert _announcements(news) == []
    await _past_midnight(scene)
    tomorrow = scene.bot.services.challenges.today()
    assert tomorrow > dealt.day
    board = await scene.bot.services.storage.challenges.board(dealt.day, "showdown", scene.guild.id)
    assert sorted(play.user_id for play in board) == sorted(member.id for member in players)
    assert next(play for play in board if play.user_id == players[0].id).score == 0  # par
    top = ", ".join(
        f"{rank}. <@{play.user_id}> {against_par(play.score)}" for rank, play in ranked(board)[:3]
    )
    expected = (
        f"**Today's challenge is dealt** ({tomorrow}, UTC): the same cards on every server. "
        f"Play it alone with `/challenge play`.\nYesterday's {dealt.spec.title}: {top}"
    )
    assert _announcements(news) == [expected]
    assert top.count("<@") == 3  # four played: the top three are named
    # A restart the same day (its first look at the day) does not announce it again.
    await scene.restart()
    await scene.env.settle()
    assert _announcements(news) == [expected]
    assert _announcements(scene.channel) == []


async def test_without_a_challenge_channel_nothing_is_announced(scene: Scene) -> None:
    _quick(scene)
    ann = scene.members[0]
    shown = await _play(scene, ann, scene.channel, "showdown")
    await _typed(ann, shown.response.message, (await _dealt(scene, "showdown")).par)
    posted = [message.content for message in scene.channel.history()]
    await _past_midnight(scene)
    await scene.restart()
    await scene.env.settle()
    assert [message.content for message in scene.channel.history()] == posted
    assert await scene.bot.services.storage.challenges.channel(scene.guild.id) is None


def test_only_the_pyramid_games_have_a_challenge() -> None:
    with pytest.raises(GameError, match="The daily challenge deals"):
        challenge_game("paigow")


async def test_the_profile_shows_the_challenges_best_score_and_streak(
    scene: Scene, drawn: list[Drawn]
) -> None:
    _quick(scene)
    ann = scene.members[0]
    here = await _play(scene, ann, scene.channel, "standard")
    dealt = await _dealt(scene, "standard")
    setting = quick_arranger(dealt.spec, dealt.held)
    await _typed(ann, here.response.message, setting)
    score = _engine_points(dealt, _confirmed(dealt, setting)) - dealt.par_points
    drawn.clear()
    shown = await ann.slash(scene.channel, "profile")
    assert shown.response.attachments
    texts = [piece.text for piece in drawn]
    assert "Daily challenge" in texts
    assert f"{signed(score)} against par" in texts and "1 day" in texts
