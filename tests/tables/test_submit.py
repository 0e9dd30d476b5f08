"""A player's hands reach the table as a setting (a value), read once where the player made them;
the table checks the value against the cards it dealt, whatever made it."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from tables.config import make_config
from tables.hands import read_setting
from tables.phase import Phase
from tables.setting import Setting
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World, quick_arranger


async def deal(world: World, game: str) -> None:
    """Two players at a table of ``game``, setting their hands."""
    await world.manager.create(GUILD, CHANNEL, HOST, make_config(game))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.phase is Phase.ARRANGING


async def test_a_setting_submitted_as_a_value_is_the_setting_kept(world: World) -> None:
    await deal(world, "no-surrender")
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None
    setting = quick_arranger(table.spec, world.publisher.held(HOST))
    await world.manager.submit(GUILD, CHANNEL, HOST, setting)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None and table.seat_of(HOST).setting == setting


async def test_a_fouled_setting_is_refused_by_the_table_with_the_sentence_its_text_gets(
    world: World,
) -> None:
    await deal(world, "no-surrender")
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None
    held = sorted(world.publisher.held(HOST), key=lambda card: card.code)
    # The weakest cards in the back and the strongest in front: the order rule is broken.
    fouled = Setting((tuple(held[-3:]), tuple(held[5:10]), tuple(held[:5])), tuple(held[10:-3]))
    with pytest.raises(GameError) as typed:
        read_setting(table.spec, tuple(held), fouled.text)
    with pytest.raises(GameError) as submitted:
        await world.manager.submit(GUILD, CHANNEL, HOST, fouled)
    assert str(submitted.value) == str(typed.value)
    assert await world.manager.table(GUILD, CHANNEL) == table


@pytest.mark.parametrize(
    ("setting", "sentence"),
    [
        (Setting(((), ()), automatic="dragon"), "Pai Gow poker has no automatics."),
        (Setting(((), ())), "Set two cards low and five cards high, separated by `|`."),
    ],
)
async def test_a_house_setting_not_of_the_games_form_is_refused_with_its_sentence(
    world: World, setting: Setting, sentence: str
) -> None:
    await deal(world, "paigow")
    table = await world.manager.table(GUILD, CHANNEL)
    with pytest.raises(GameError) as refused:
        await world.manager.submit(GUILD, CHANNEL, HOST, setting)
    assert str(refused.value) == sentence
    assert await world.manager.table(GUILD, CHANNEL) == table


async def test_a_house_setting_with_discards_is_refused_with_its_sentence(world: World) -> None:
    await deal(world, "paigow")
    held = world.publisher.held(HOST)
    setting = Setting((held[:2], held[2:6]), held[6:])
    with pytest.raises(GameError) as refused:
        await world.manager.submit(GUILD, CHANNEL, HOST, setting)
    assert str(refused.value) == "Pai Gow poker uses every card: there is nothing to discard."
