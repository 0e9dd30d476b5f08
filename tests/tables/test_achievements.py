"""Achievements are earned by listening: each rule from the events that earn it, once per player
and server however often an event is delivered, announced once in the channel through the
outbox (or kept quiet by the server's setting), and listed in docs/rules.md as defined."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from engine.players import Level
from engine.variants import Automatic
from storage import Storage
from tables.achievements import ACHIEVEMENTS, BY_KEY, Achievements
from tables.codec import encode_event
from tables.config import make_config
from tables.events import AchievementEarned, ChallengePlayed, Event, SeatResult, ShowdownSettled
from tables.games import GAMES
from tables.subscribers import Subscriber
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World

ANN, BOB = 11, 12
STRONG = -1
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
GAME = next(iter(GAMES))


@pytest.fixture
async def world(database_target: str | Path) -> AsyncIterator[World]:
    """A world whose one listener is the achievements (the events below name games that no
    table played, which the statistics would refuse)."""

    def features(storage: Storage) -> list[Subscriber]:
        return [Achievements(storage.achievements, storage.settings)]

    opened = await World.open(database_target, features=features)
    yield opened
    await opened.close()


def seat(user: int = ANN, **fields: object) -> SeatResult:
    """A seat of a showdown: played on, no hands shown, net 0 unless given."""
    values: dict[str, object] = {
        "surrendered_at": None,
        "hands": (),
        "labels": (),
        "automatic": None,
        "net": 0,
    }
    values.update(fields)
    return SeatResult(user, **values)  # type: ignore[arg-type]


def showdown(game_id: int, *seats: SeatResult, game: str = GAME, **fields: object) -> Event:
    """A settled game of these seats (Bob losing what Ann's seat won, when not given)."""
    if not seats:
        seats = (seat(),)
    if len(seats) == 1:
        seats = (*seats, seat(BOB, net=-seats[0].net))
    values: dict[str, object] = {
        "matrix": (),
        "matrix_players": (),
        "nets": {s.user: s.net for s in seats},
        "house": 0,
        "pot": 0,
        "pot_winners": (),
    }
    values.update(fields)
    return ShowdownSettled(game_id, game, seats, **values)  # type: ignore[arg-type]


def challenge(*, points: int = 0, par: int = 5, streak: int = 1) -> Event:
    return ChallengePlayed("2026-11-26", GAME, ANN, points, par, streak)


def games(count: int, **fields: object) -> list[Event]:
    return [showdown(100 + n, seat(**fields)) for n in range(count)]


#: For each achievement, events that earn it for Ann (each delivered twice by the test).
EARNS: dict[str, Callable[[], list[Event]]] = {
    "first-game": lambda: [showdown(1, seat(net=-5))],
    "first-win": lambda: [showdown(1, seat(net=5))],
    "regular": lambda: games(10, net=-1),
    "centurion": lambda: games(100, net=-1),
    "ten-wins": lambda: games(10, net=1),
    "grand-tour": lambda: [showdown(n, game=name) for n, name in enumerate(GAMES, 1)],
    "automatic": lambda: [showdown(1, seat(automatic=Automatic.THREE_FLUSHES.value))],
    "dragon": lambda: [showdown(1, seat(automatic=Automatic.DRAGON.value))],
    "clean-sweep": lambda: [showdown(1, seat(per_hand=(1, 1, 1, 2, 3, 1), net=9))],
    "giant-killer": lambda: [
        showdown(
            1,
            seat(net=3),
            seat(STRONG, net=-3, computer=Level.STRONG.value),
            matrix=((0, 3), (-3, 0)),
            matrix_players=(ANN, STRONG),
        )
    ],
    "pot-taker": lambda: [showdown(1, seat(net=30), pot=30, pot_winners=(ANN,))],
    "high-roller": lambda: [showdown(1, seat(net=100))],
    "live-to-play": lambda: [showdown(1, seat(surrendered_at=0, net=-15))],
    "daily-player": lambda: [challenge()],
    "beat-par": lambda: [challenge(points=6)],
    "crushed-par": lambda: [challenge(points=15)],
    "week-streak": lambda: [challenge(streak=7)],
    "month-streak": lambda: [challenge(streak=30)],
}
#: For each achievement, events a step short of it (nothing earns it for Ann).
FALLS_SHORT: dict[str, Callable[[], list[Event]]] = {
    "first-game": lambda: [challenge()],
    "first-win": lambda: [showdown(1, seat(net=0))],
    "regular": lambda: games(9),
    "centurion": lambda: games(99),
    "ten-wins": lambda: [*games(9, net=1), showdown(200, seat(net=-1))],
    "grand-tour": lambda: [showdown(n, game=name) for n, name in enumerate(list(GAMES)[1:], 1)],
    "automatic": lambda: [showdown(1, seat(net=5))],
    "dragon": lambda: [showdown(1, seat(automatic=Automatic.THREE_FULL_HOUSES.value))],
    "clean-sweep": lambda: [showdown(1, seat(per_hand=(1, 1, 1, 2, 0, 1), net=6))],
    "giant-killer": lambda: [
        showdown(
            1,
            seat(net=-3),
            seat(STRONG, net=3, computer=Level.STRONG.value),
            matrix=((0, -3), (3, 0)),
            matrix_players=(ANN, STRONG),
        )
    ],
    "pot-taker": lambda: [showdown(1, seat(net=15), pot=30, pot_winners=(ANN, BOB))],
    "high-roller": lambda: [showdown(1, seat(net=99))],
    "live-to-play": lambda: [showdown(1, seat(net=-15))],
    "daily-player": lambda: [showdown(1)],
    "beat-par": lambda: [challenge(points=5)],
    "crushed-par": lambda: [challenge(points=14)],
    "week-streak": lambda: [challenge(streak=6)],
    "month-streak": lambda: [challenge(streak=29)],
}


async def deliver(world: World, events: list[Event]) -> None:
    """Queue the events in the channel's outbox as a table or the challenge would, and let
    every lane take them."""
    await world.storage.outbox.queue(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game_id=None,
        events=[encode_event(event) for event in events],
    )
    await world.manager.outbox.drain((GUILD, CHANNEL))


def announced(world: World, user: int = ANN) -> list[str]:
    return [
        e.achievement
        for e in world.publisher.of(AchievementEarned, CHANNEL)
        if isinstance(e, AchievementEarned) and e.user == user
    ]


async def earned(world: World, user: int = ANN) -> list[str]:
    return [row.achievement for row in await world.storage.achievements.earned(GUILD, user)]


def test_every_achievement_has_a_case_that_earns_it_and_one_that_falls_short() -> None:
    keys = [a.key for a in ACHIEVEMENTS]
    assert len(keys) >= 15 and len(set(keys)) == len(keys)
    assert sorted(EARNS) == sorted(keys) == sorted(FALLS_SHORT)


@pytest.mark.parametrize("key", [a.key for a in ACHIEVEMENTS])
async def test_each_achievement_is_earned_once_and_announced_once_from_its_events(
    world: World, key: str
) -> None:
    events = EARNS[key]()
    await deliver(world, events)
    # Delivered again (a replay after a crash, a lock lost): nothing is earned twice.
    await deliver(world, events)
    assert (await earned(world)).count(key) == 1
    assert announced(world).count(key) == 1
    [shown] = [
        e
        for e in world.publisher.of(AchievementEarned)
        if isinstance(e, AchievementEarned) and e.achievement == key and e.user == ANN
    ]
    assert (shown.name, shown.description) == (BY_KEY[key].name, BY_KEY[key].description)
    # The announcement follows what earned it in the channel, never before.
    order = [type(e) for _, _, e in world.publisher.events]
    assert order.index(AchievementEarned) > order.index(type(events[0]))
    assert await world.storage.outbox.pending(GUILD, CHANNEL) == []


@pytest.mark.parametrize("key", [a.key for a in ACHIEVEMENTS])
async def test_an_achievement_is_not_earned_a_step_short_of_it(world: World, key: str) -> None:
    await deliver(world, FALLS_SHORT[key]())
    assert key not in await earned(world)
    assert key not in announced(world)


async def test_a_server_that_silences_achievements_earns_them_without_a_word(
    world: World,
) -> None:
    await world.storage.settings.set(GUILD, announce_achievements=False)
    await deliver(world, [showdown(1, seat(net=120))])
    assert await earned(world) == ["first-game", "first-win", "high-roller"]
    assert world.publisher.of(AchievementEarned) == []
    await world.storage.settings.set(GUILD, announce_achievements=True)
    await deliver(world, [showdown(2, seat(net=120))])
    assert world.publisher.of(AchievementEarned) == []  # earned already: nothing new to say


async def test_practice_games_and_computers_earn_nothing(world: World) -> None:
    await deliver(
        world,
        [
            showdown(1, seat(net=0, per_hand=(1,) * 6), practice=True),
            showdown(2, seat(STRONG, net=500, computer=Level.STRONG.value), seat(BOB, net=-500)),
        ],
    )
    assert await earned(world) == []
    assert await earned(world, STRONG) == []
    assert await earned(world, BOB) == ["first-game"]


async def test_each_server_keeps_its_own_achievements(world: World) -> None:
    await deliver(world, [showdown(1, seat(net=5))])
    assert await world.storage.achievements.earned(GUILD + 1, ANN) == []
    tally = await world.storage.achievements.tally(GUILD, ANN)
    assert (tally.played, tally.won, tally.games) == (1, 1, frozenset({GAME}))


async def test_a_game_played_at_a_table_earns_and_announces_after_its_showdown(
    database_target: str | Path,
) -> None:
    world = await World.open(database_target)  # every feature the bot runs
    try:
        await _play_and_check(world)
    finally:
        await world.close()


async def _play_and_check(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("casino"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    while (table := await world.manager.table(GUILD, CHANNEL)) is not None and table.in_game:
        await world.scheduler.pass_deadline()
    for user in (HOST, PLAYERS[1]):
        assert "first-game" in await earned(world, user)
        assert announced(world, user)[0] == "first-game"
    order = [type(e) for _, _, e in world.publisher.events]
    assert order.index(AchievementEarned) > order.index(ShowdownSettled)
    assert await world.storage.outbox.pending(GUILD, CHANNEL) == []


def test_docs_rules_list_every_achievement_as_defined() -> None:
    text = RULES.read_text("utf-8")
    section = text[text.index("\n## Achievements") :]
    section = section[: section.find("\n## ", 1)] if "\n## " in section[1:] else section
    listed = re.findall(r"^- \*\*(.+?)\*\*: (.+)$", section, re.M)
    assert listed == [(str(a.name), str(a.description)) for a in ACHIEVEMENTS]
