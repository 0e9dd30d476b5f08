"""The daily challenge's repository on each store: a deal kept once, one submission per player,
day and game (stored with its outbox row in one transaction), boards per server, streaks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from storage import Storage
from storage.challenge import ChallengeTakenError, streak_upto

GUILD, OTHER, CHANNEL = 11, 22, 33


def _event(streak: int) -> Mapping[str, Any]:
    return {"type": "ChallengePlayed", "fields": {"streak": streak}}


async def _submit(
    store: Storage, day: str, user: int, points: int, *, guild: int = GUILD, game: str = "g"
) -> int:
    streak, _ = await store.challenges.submit(
        day=day,
        game=game,
        title="Game",
        user_id=user,
        guild_id=guild,
        channel_id=CHANNEL,
        setting="{}",
        points=points,
        par=2,
        event=_event,
    )
    return streak


async def test_a_days_deal_is_kept_once(store: Storage) -> None:
    assert await store.challenges.deal("2026-03-02", "g") is None
    assert await store.challenges.keep_deal("2026-03-02", "g", "first") == "first"
    assert await store.challenges.keep_deal("2026-03-02", "g", "second") == "first"
    assert await store.challenges.deal("2026-03-02", "g") == "first"


async def test_a_second_submission_is_refused_and_changes_nothing(store: Storage) -> None:
    await _submit(store, "2026-03-02", 1, 5)
    rows = await store.outbox.pending(GUILD, CHANNEL)
    assert len(rows) == 1 and rows[0].event["fields"] == {"streak": 1}
    with pytest.raises(ChallengeTakenError, match="already played today's Game challenge"):
        await _submit(store, "2026-03-02", 1, 9)
    play = await store.challenges.play("2026-03-02", "g", 1)
    assert play is not None and play.points == 5 and play.score == 3
    assert len(await store.outbox.pending(GUILD, CHANNEL)) == 1


async def test_the_board_is_the_servers_and_the_scores_everyones(store: Storage) -> None:
    await _submit(store, "2026-03-02", 1, 1)
    await _submit(store, "2026-03-02", 2, 7)
    await _submit(store, "2026-03-02", 3, 4, guild=OTHER)
    await _submit(store, "2026-03-02", 4, 9, game="h")
    board = await store.challenges.board("2026-03-02", "g", GUILD)
    assert [(p.user_id, p.score) for p in board] == [(2, 5), (1, -1)]
    assert await store.challenges.scores("2026-03-02", "g") == [-1, 2, 5]


async def test_the_streak_counts_consecutive_days_of_any_game(store: Storage) -> None:
    assert await _submit(store, "2026-03-01", 1, 1) == 1
    assert await _submit(store, "2026-03-02", 1, 1, game="h") == 2
    assert await _submit(store, "2026-03-02", 1, 8) == 2
    assert await _submit(store, "2026-03-04", 1, 1) == 1
    record = await store.challenges.record(1, "2026-03-05")
    assert (record.streak, record.best) == (1, 6)  # today is still open
    assert (await store.challenges.record(1, "2026-03-06")).streak == 0
    never = await store.challenges.record(9, "2026-03-06")
    assert (never.streak, never.best) == (0, None)


async def test_the_challenge_channel_is_set_cleared_and_announced_once(store: Storage) -> None:
    assert await store.challenges.channel(GUILD) is None
    await store.challenges.set_channel(GUILD, CHANNEL)
    assert await store.challenges.channel(GUILD) == CHANNEL
    assert await store.challenges.to_announce("2026-03-02") == [(GUILD, CHANNEL)]
    assert await store.challenges.announced(GUILD, "2026-03-02")
    assert not await store.challenges.announced(GUILD, "2026-03-02")
    assert await store.challenges.to_announce("2026-03-02") == []
    assert await store.challenges.to_announce("2026-03-03") == [(GUILD, CHANNEL)]
    await store.challenges.set_channel(GUILD, None)
    assert await store.challenges.channel(GUILD) is None


def test_a_streak_ends_at_the_first_day_missed() -> None:
    assert streak_upto(["2026-02-28", "2026-03-01", "2026-03-03"], "2026-03-01") == 2
    assert streak_upto(["2026-03-01"], "2026-03-02") == 0
