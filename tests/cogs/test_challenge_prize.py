"""The daily challenge's prize through the real bot: none unless an admin sets one, the day's
best paid once just after midnight (a logged grant, even across a restart), a tie split, the
winners named by the announcement and the day's board, and a stranger or a bad number refused."""

from __future__ import annotations

from typing import Any

import discord

from cogs.challenge_hands import preview_sentence
from storage.audit import audit
from storage.prizes import Winner, split_prize
from storage.rows import LedgerEntry
from tables.challenge import ChallengeDay
from tables.setting import Setting
from tests.cogs.helpers import Scene, an_admin
from tests.tables.helpers import quick_arranger

GAME = "showdown"


async def _dealt(scene: Scene) -> ChallengeDay:
    challenges = scene.bot.services.challenges
    # The solver's time for the day's settings, cut for the tests (the store keeps them).
    challenges.budget_s = 0.05
    return await challenges.deal(GAME, challenges.today())


async def _play(scene: Scene, member: Any, setting: Setting) -> None:
    """Play today's Showdown challenge: Type hands, then Submit these hands."""
    shown = await member.slash(scene.channel, "challenge play", game=GAME)
    opened = await member.click(shown.response.message, label="Type hands")
    typed = {"hands": setting.text}
    if any(row["components"][0]["custom_id"] == "automatic" for row in opened.modal["components"]):
        typed["automatic"] = setting.automatic or ""
    previewed = await member.submit_modal(opened, typed)
    assert previewed.response.content == str(preview_sentence(setting))
    played = await member.click(previewed.response.message, label="Submit these hands")
    assert played.response.content.startswith("Submitted:"), played.response.content


async def _past_midnight(scene: Scene) -> None:
    """The virtual clock a few seconds past the next UTC midnight, the daily timer run."""
    await scene.env.advance_time(scene.bot.services.challenges.until_tomorrow() + 5)
    await scene.env.settle()


async def _prizes(scene: Scene, member: Any) -> list[LedgerEntry]:
    rows = await scene.bot.services.storage.players.ledger(scene.guild.id, member.id)
    return [row for row in rows if row.reason.startswith("daily challenge prize")]


async def _expected(scene: Scene, day: str, chips: int) -> list[Winner]:
    """The board's best (earliest first, as the store orders ties) sharing ``chips``."""
    board = await scene.bot.services.storage.challenges.board(day, GAME, scene.guild.id)
    return split_prize(chips, [play.user_id for play in board if play.score == board[0].score])


async def test_no_prize_is_paid_unless_the_server_sets_one(scene: Scene) -> None:
    ann = scene.members[0]
    dealt = await _dealt(scene)
    await _play(scene, ann, dealt.par)
    await _past_midnight(scene)
    assert await _prizes(scene, ann) == []
    assert await scene.bot.services.storage.prizes.winners(scene.guild.id, dealt.day, GAME) == []
    board = await ann.slash(scene.channel, "challenge results", game=GAME, date=dealt.day)
    assert "prize" not in board.response.content


async def test_the_days_best_is_paid_the_prize_once_and_named(scene: Scene) -> None:
    boss = an_admin(scene)
    news = scene.guild.create_text_channel("challenge-news")
    await boss.slash(scene.channel, "settings challenge", channel=news)
    set_ = await boss.slash(scene.channel, "settings challenge", prize=100)
    dealt = await _dealt(scene)
    assert set_.ephemeral and set_.response.content == (
        "The day's best score against par here wins **100** chips in each game's challenge "
        f"(a tie splits it), paid just after midnight UTC for each day from {dealt.day} on."
    )
    ann, bob = scene.members[:2]
    await _play(scene, ann, dealt.par)
    await _play(scene, bob, quick_arranger(dealt.spec, dealt.held))
    await _past_midnight(scene)
    winners = await _expected(scene, dealt.day, 100)
    won = ", ".join(f"**{w.chips:,}** chips to <@{w.user_id}>" for w in winners)
    (announced,) = [m.content for m in news.history() if m.content.startswith("**Today's")]
    assert announced.splitlines()[-1].startswith(f"Yesterday's {dealt.spec.title}: 1. ")
    assert announced.splitlines()[-1].endswith(f"; prize: {won}")
    # A restart the next day, and the timer's step again: nothing is paid twice.
    await scene.restart()
    await scene.env.settle()
    assert await scene.bot.services.challenges.pay_prizes() == []
    for member in (ann, bob):
        paid = await _prizes(scene, member)
        share = [w.chips for w in winners if w.user_id == member.id]
        assert [(row.kind, row.amount, row.game_id) for row in paid] == [
            ("grant", chips, None) for chips in share
        ]
        assert all(
            row.reason == f"daily challenge prize: {dealt.spec.title} of {dealt.day}"
            for row in paid
        )
    report = await audit(scene.bot.services.storage.database, scene.guild.id)
    assert report.is_consistent, report.problems
    board = await bob.slash(scene.channel, "challenge results", game=GAME, date=dealt.day)
    assert f"\nprize: {won}.\n" in board.response.content


async def test_without_a_channel_a_tie_splits_the_prize(scene: Scene) -> None:
    boss = an_admin(scene)
    await boss.slash(scene.channel, "settings challenge", prize=100)
    dealt = await _dealt(scene)
    players = scene.members[1:4]
    for member in players:
        await _play(scene, member, dealt.par)  # the same hands: the same score, a tie
    posted = len(scene.channel.history())
    await _past_midnight(scene)
    assert len(scene.channel.history()) == posted  # no channel: paid, not announced
    first, second, third = players
    split = [Winner(first.id, 34), Winner(second.id, 33), Winner(third.id, 33)]
    assert await scene.bot.services.storage.prizes.winners(scene.guild.id, dealt.day, GAME) == (
        split
    )
    for member, chips in zip(players, (34, 33, 33), strict=True):
        assert [row.amount for row in await _prizes(scene, member)] == [chips]
    board = await first.slash(scene.channel, "challenge results", game=GAME, date=dealt.day)
    assert (
        f"prize: **34** chips to <@{first.id}>, **33** chips to <@{second.id}>, "
        f"**33** chips to <@{third.id}>." in board.response.content
    )
    assert (await audit(scene.bot.services.storage.database, scene.guild.id)).is_consistent


async def test_a_member_who_may_not_manage_the_server_cannot_set_a_prize(scene: Scene) -> None:
    commands = await scene.bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    bob = scene.members[1]
    # A server may unhide the group; the bot still checks.
    scene.guild.set_command_permissions(
        next(c for c in commands if c.name == "settings"), {bob: True}
    )
    refused = await bob.slash(scene.channel, "settings challenge", prize=500)
    assert refused.ephemeral
    assert refused.response.content == "Only members who may manage this server can do that."
    assert await scene.bot.services.storage.prizes.get(scene.guild.id) is None


async def test_a_prize_out_of_range_is_refused_with_a_sentence(scene: Scene) -> None:
    boss = an_admin(scene)
    await boss.slash(scene.channel, "settings challenge", prize=20)
    for chips in (-5, 1_000_001):
        refused = await boss.slash(
            scene.channel, "settings challenge", prize=chips, channel=scene.channel
        )
        assert refused.ephemeral
        assert refused.response.content == (
            f"A challenge prize is 0 (none) to 1,000,000 chips, not {chips:,}."
        )
    prize = await scene.bot.services.storage.prizes.get(scene.guild.id)
    assert prize is not None and prize.chips == 20
    assert await scene.bot.services.storage.challenges.channel(scene.guild.id) is None
    shown = await boss.slash(scene.channel, "settings challenge")
    assert shown.response.content.splitlines() == [
        "The daily challenge is not announced; name a channel to announce it there.",
        f"The day's best score against par here wins **20** chips in each game's challenge "
        f"(a tie splits it), paid just after midnight UTC for each day from "
        f"{scene.bot.services.challenges.today()} on.",
    ]
    off = await boss.slash(scene.channel, "settings challenge", prize=0)
    assert off.response.content == "The daily challenge has no prize here (`prize:` sets one)."
    assert await scene.bot.services.storage.prizes.get(scene.guild.id) is None
