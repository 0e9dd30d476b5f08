"""Suggestions made before they are asked for: each person's holding goes to the workers as
the hands are to be set (the nearest deadline first, after every player's own ask); a Suggest
pressed before it is ready gets a first answer at once; the deadline sets a silent player's
hands from the suggestion made already."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tables.coach import Reviews
from tables.config import make_config
from tables.events import ShowdownSettled
from tables.hands import setting_problem
from tables.phase import Phase
from tables.rules import pyramid_review
from tables.runtime import Priority, Slots, ThreadOffload
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, GatedOffload, World


def _preparing(world: World) -> GatedOffload:
    """The manager as the bot runs it (suggestions made ahead), its workers held shut."""
    manager = world.manager
    manager.prepare_suggestions = True
    manager.flow.prepared = manager.suggestions.ready
    gated = GatedOffload(manager.offload, only=("suggest_setting",))
    manager.offload = gated
    return gated


async def test_each_persons_holding_is_solved_as_the_hands_are_to_be_set(world: World) -> None:
    gated = _preparing(world)
    manager = world.manager
    await manager.create(GUILD, CHANNEL, HOST, make_config("no-surrender"))
    await manager.join(GUILD, CHANNEL, PLAYERS[1])
    await manager.add_computer(GUILD, CHANNEL, HOST, "casual")
    await manager.start(GUILD, CHANNEL, HOST)  # No-Surrender: the hands are to be set at once
    await gated.until_asked(2)
    table = await manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.ARRANGING
    # The two people's holdings, not the computer's (it plays its level), ordered by deadline.
    assert gated.asked == [("suggest_setting", Priority.PREPARE)] * 2
    assert gated.urgencies == [table.deadline] * 2
    # Asked again (a Suggest, another action at the table): the same answer, not a new ask.
    waiting = asyncio.create_task(manager.suggest(GUILD, CHANNEL, HOST))
    await asyncio.sleep(0)
    assert len(gated.asked) == 2
    # Pressed before it is ready: a first answer at once, legal, not the best.
    first, best = await manager.suggest_now(GUILD, CHANNEL, HOST)
    assert not best and not first.exact
    held = table.seat_of(HOST).held
    assert setting_problem(table.spec, held, first.setting) is None
    gated.gate.set()
    made = await waiting
    assert await manager.suggest_now(GUILD, CHANNEL, HOST) == (made, True)
    assert len(gated.asked) == 2


async def test_the_deadline_sets_a_silent_players_hands_from_the_suggestion_made(
    world: World,
) -> None:
    gated = _preparing(world)
    gated.gate.set()
    manager = world.manager
    asked: list[Any] = []

    def arranger(*args: Any) -> Any:
        asked.append(args)
        raise AssertionError("the deadline asked the workers again")

    manager.arranger = arranger
    await manager.create(GUILD, CHANNEL, HOST, make_config("no-surrender"))
    await manager.join(GUILD, CHANNEL, PLAYERS[1])
    await manager.start(GUILD, CHANNEL, HOST)
    await gated.until_asked(2)
    made = await manager.suggest(GUILD, CHANNEL, PLAYERS[1])
    await manager.suggest(GUILD, CHANNEL, HOST)
    await world.scheduler.pass_deadline()
    [showdown] = world.publisher.of(ShowdownSettled)
    assert isinstance(showdown, ShowdownSettled)
    seats = {seat.user: seat for seat in showdown.seats}
    assert seats[PLAYERS[1]].set_by == "solver"
    assert [list(hand) for hand in seats[PLAYERS[1]].hands] == [
        list(hand) for hand in made.setting.hands
    ]
    assert asked == []


async def test_prepared_suggestions_wait_behind_asked_ones_the_nearest_deadline_first() -> None:
    slots = Slots(1)
    ran: list[str] = []
    hold = asyncio.Event()

    async def job(name: str, priority: Priority, urgency: float = 0.0) -> None:
        async with slots.taken(priority, urgency):
            ran.append(name)
            await hold.wait()

    first = asyncio.create_task(job("running", Priority.SETTLE))
    await asyncio.sleep(0)
    later = [
        asyncio.create_task(job("later deadline", Priority.PREPARE, 200.0)),
        asyncio.create_task(job("sooner deadline", Priority.PREPARE, 100.0)),
        asyncio.create_task(job("asked", Priority.SUGGEST)),
    ]
    await asyncio.sleep(0)
    hold.set()
    await asyncio.gather(first, *later)
    assert ran == ["running", "asked", "sooner deadline", "later deadline"]


async def test_prepared_suggestions_leave_the_kept_slots_free() -> None:
    slots = Slots(2, kept=1)
    ran: list[str] = []
    hold = asyncio.Event()

    async def job(name: str, priority: Priority, urgency: float = 0.0) -> None:
        async with slots.taken(priority, urgency):
            ran.append(name)
            await hold.wait()

    jobs = [asyncio.create_task(job(f"prepared {n}", Priority.PREPARE, n)) for n in (1, 2)]
    await asyncio.sleep(0)
    assert ran == ["prepared 1"]  # the kept slot is never a suggestion's, asked or prepared
    jobs.append(asyncio.create_task(job("settle", Priority.SETTLE)))
    await asyncio.sleep(0)
    assert ran == ["prepared 1", "settle"]
    hold.set()
    await asyncio.gather(*jobs)


async def test_a_first_answer_takes_the_kept_worker_when_suggestions_fill_the_others() -> None:
    slots = Slots(2, kept=1)
    ran: list[str] = []
    hold = asyncio.Event()

    async def job(name: str, priority: Priority) -> None:
        async with slots.taken(priority):
            ran.append(name)
            if priority is not Priority.FIRST:
                await hold.wait()

    jobs = [asyncio.create_task(job("prepared", Priority.PREPARE))]
    jobs.append(asyncio.create_task(job("asked", Priority.SUGGEST)))
    await asyncio.sleep(0)
    assert ran == ["prepared"]  # the asked suggestion waits for the one suggestion slot
    jobs.append(asyncio.create_task(job("first answer", Priority.FIRST)))
    await asyncio.sleep(0)
    assert ran == ["prepared", "first answer"]  # a player waits for it: the kept slot
    hold.set()
    await asyncio.gather(*jobs)
    assert ran == ["prepared", "first answer", "asked"]


async def test_a_review_takes_the_suggestion_made_in_the_game(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    gated = _preparing(world)
    gated.gate.set()
    manager = world.manager
    await manager.create(GUILD, CHANNEL, HOST, make_config("no-surrender"))
    await manager.join(GUILD, CHANNEL, PLAYERS[1])
    await manager.start(GUILD, CHANNEL, HOST)
    await gated.until_asked(2)
    made = await manager.suggest(GUILD, CHANNEL, HOST)
    other = await manager.suggest(GUILD, CHANNEL, PLAYERS[1])
    await manager.submit(GUILD, CHANNEL, PLAYERS[1], other.setting)
    await manager.submit(GUILD, CHANNEL, HOST, made.setting)
    [showdown] = world.publisher.of(ShowdownSettled)
    solved: list[Any] = []

    def solve(*args: Any, **kwargs: Any) -> Any:
        solved.append(args)
        return original(*args, **kwargs)

    original = pyramid_review.solve
    monkeypatch.setattr(pyramid_review, "solve", solve)
    reviews = Reviews(
        world.storage, ThreadOffload(), world.clock, prepared=manager.suggestions.ready
    )
    review = await reviews.review(GUILD, HOST, showdown.game_id)
    assert review.best is not None and review.yours is not None
    assert [list(hand) for hand in review.best.hands] == [list(h) for h in made.setting.hands]
    assert solved == []  # the suggestion made during the game, not a second solve
    # A suggestion of other cards (another player's) is not taken for these.
    wrong = Reviews(world.storage, ThreadOffload(), world.clock, prepared=lambda g, u: other)
    await wrong.review(GUILD, HOST, showdown.game_id)
    assert len(solved) == 1


async def test_prepared_suggestions_leave_a_worker_to_the_players_who_ask() -> None:
    slots = Slots(4, kept=1)  # three workers a suggestion may take, one kept
    ran: list[str] = []
    hold = asyncio.Event()

    async def job(name: str, priority: Priority) -> None:
        async with slots.taken(priority):
            ran.append(name)
            await hold.wait()

    jobs = [asyncio.create_task(job(f"prepared {n}", Priority.PREPARE)) for n in (1, 2, 3)]
    await asyncio.sleep(0)
    assert ran == ["prepared 1", "prepared 2"]  # one worker fewer than suggestions may take
    jobs.append(asyncio.create_task(job("asked", Priority.SUGGEST)))
    await asyncio.sleep(0)
    assert ran == ["prepared 1", "prepared 2", "asked"]
    hold.set()
    await asyncio.gather(*jobs)
    assert ran[-1] == "prepared 3"
