"""Pictures drawn in processes of their own, never on the loop's interpreter: the same bytes as
drawn in the loop's process."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from cogs.common import (
    PICTURES_IN_FLIGHT,
    PictureWorkers,
    batch_picture,
    draw_pictures_in,
    picture,
)
from cogs.pictures import hand_picture
from engine.cards import parse_cards


@pytest.mark.slow  # a spawned process imports the bot's modules: seconds
async def test_a_picture_is_drawn_in_a_picture_process_and_is_the_same() -> None:
    # The process's start-up work: a cheap stand-in for drawing every card (module-level, as
    # a spawned process must import it).
    workers = PictureWorkers(1, os.getpid)
    await workers.start()
    draw_pictures_in(workers)
    cards = parse_cards("As Kd 7c W 2h 2d")
    try:
        drawer = await picture(os.getpid)
        there = await picture(hand_picture, cards, title="Your cards", subtitle="Game 1")
        chinese = await picture(hand_picture, cards, locale="zh-CN")
    finally:
        draw_pictures_in(None)
        workers.close()
    assert drawer != os.getpid()
    assert there == hand_picture(cards, title="Your cards", subtitle="Game 1")
    # A picture in the reader's language: the locale and the title as a text cross over.
    assert chinese == hand_picture(cards, locale="zh-CN") != hand_picture(cards)
    # Without workers, pictures are drawn in a thread of this process again.
    assert await picture(os.getpid) == os.getpid()


@pytest.mark.slow
async def test_a_picture_answering_a_click_goes_before_a_batch_of_dms() -> None:
    workers = PictureWorkers(1, os.getpid)
    await workers.start()
    draw_pictures_in(workers)
    done: list[str] = []

    async def drawn(name: str, batch: bool) -> None:
        await (batch_picture if batch else picture)(time.sleep, 0.2)
        done.append(name)

    try:
        # The first DMs fill the process: one drawn, the others queued there.
        first = [asyncio.create_task(drawn(f"dm {n}", True)) for n in range(PICTURES_IN_FLIGHT)]
        await asyncio.sleep(0.05)
        later = PICTURES_IN_FLIGHT, PICTURES_IN_FLIGHT + 1
        others = [asyncio.create_task(drawn(f"dm {n}", True)) for n in later]
        await asyncio.sleep(0)
        clicked = asyncio.create_task(drawn("suggestion", False))
        await asyncio.gather(*first, *others, clicked)
    finally:
        draw_pictures_in(None)
        workers.close()
    in_process = [f"dm {n}" for n in range(PICTURES_IN_FLIGHT)]
    assert done == [*in_process, "suggestion", *(f"dm {n}" for n in later)]
