"""The rules objects: one per family, asked the same way; a setting is a typed value, checked
once when set and again when a snapshot is loaded."""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_cards
from engine.errors import GameError
from storage.rows import GameStatus
from tables.config import make_config
from tables.games import GAMES, rules_of
from tables.rules.house import HouseRules
from tables.setting import Setting
from tables.snapshot import table_from_state
from tables.table import Table
from tests.tables.helpers import CHANNEL, GUILD, HOST, PLAYERS, World, quick_arranger


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_answers_the_same_questions(game: str) -> None:
    rules = rules_of(GAMES[game])
    shape = rules.shape()
    assert shape and all(slot.name and slot.sizes for slot in shape)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_pictures_name_each_hand_a_player_sets(game: str) -> None:
    rules = rules_of(GAMES[game])
    assert len(rules.slot_names()) == len(rules.shape())
    assert rules.card().pages and rules.called()


@pytest.mark.parametrize(
    ("game", "options", "taken_by"),
    [
        ("showdown", {"ties_to_dealer": True}, "the three-card game"),
        ("paigow", {"decks": 8}, "the three-card game"),
        ("three-card", {"wheel": "california"}, "Pai Gow"),
    ],
)
def test_a_table_option_is_refused_naming_the_game_that_takes_it(
    game: str, options: dict[str, object], taken_by: str
) -> None:
    [option] = options
    with pytest.raises(GameError, match=f"The {option} option is for {taken_by}, not "):
        make_config(game, **options)


def test_a_house_games_shoe_is_its_decks() -> None:
    eight = make_config("three-card", decks=8).spec
    three_card = rules_of(eight)
    pai_gow = rules_of(GAMES["paigow"])
    assert isinstance(three_card, HouseRules) and isinstance(pai_gow, HouseRules)
    assert len(three_card.shoe_codes()) == 8 * 52
    # Seed 003: one deck of 52 and a single joker, each card once.
    assert len(set(pai_gow.shoe_codes())) == len(pai_gow.shoe_codes()) == 53


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_suggested_setting_reads_back_from_its_text_as_the_same_value(game: str) -> None:
    spec = GAMES[game]
    rules = rules_of(spec)
    deal = {
        "showdown": "As Ah Ad Kc Kd Ks Qs Qh Qd Jc Jd Js Tc Td Th 9c 9d 9h 8c 8d",
        "casino": "As Ah Ad Kc Kd Ks Qs Qh Qd",
        "standard": "As Ah Ad Kc Kd Ks Qs Qh Qd Jc Jd Js Tc Td Th 9c 9d",
        "no-surrender": "As Ah Ad Kc Kd Ks Qs Qh Qd Jc Jd Js Tc Td Th 9c 9d",
        "three-card": "As Kd 7c",
        "paigow": "As Ah Kd Qc Jh 9s 2d",
    }[game]
    cards = parse_cards(deal)
    setting = rules.suggest(cards, budget_s=0.5).setting
    again = rules.read(cards, setting.text, setting.automatic)
    assert again == setting
    assert Setting.from_json(setting.to_json()) == setting
    rules.check(cards, again)


def test_a_setting_that_no_longer_fits_the_cards_is_refused_on_load() -> None:
    rules = rules_of(GAMES["three-card"])
    setting = rules.read(parse_cards("As Kd 7c"), "7c | As Kd")
    with pytest.raises(GameError):
        rules.check(parse_cards("As Kd 8c"), setting)


async def test_a_damaged_setting_in_a_snapshot_refunds_the_game(world: World) -> None:
    await world.manager.create(GUILD, CHANNEL, HOST, make_config("no-surrender"))
    await world.manager.join(GUILD, CHANNEL, PLAYERS[1])
    await world.manager.start(GUILD, CHANNEL, HOST)
    table = await world.manager.table(GUILD, CHANNEL)
    assert table is not None
    setting = quick_arranger(table.spec, table.seat_of(HOST).held)
    await world.manager.submit(GUILD, CHANNEL, HOST, setting)
    snapshot = await world.storage.snapshots.load(GUILD, CHANNEL)
    assert snapshot is not None
    state = snapshot.state
    # The saved setting now names cards the player does not hold.
    state["seats"][0]["setting"]["hands"][0] = [state["seats"][1]["cards"][0]] * 3
    async with world.database.transaction() as connection:
        await connection.execute(
            "UPDATE table_snapshots SET state = ? WHERE channel_id = ?",
            (json.dumps(state), CHANNEL),
        )
    await world.restart()
    assert await world.manager.table(GUILD, CHANNEL) is None
    assert await world.status(1) is GameStatus.REFUNDED
    await world.check_ledger()


def test_a_format_1_snapshot_with_text_settings_is_still_read() -> None:
    table = Table.open(GUILD, CHANNEL, HOST, make_config("three-card"))
    state = table.to_state()
    state["format"] = 1
    state["seats"][0].update(
        cards=[c.code for c in parse_cards("As Kd 7c")], setting="7c | As Kd", automatic=None
    )
    read = table_from_state(state)
    seat = read.seat_of(HOST)
    assert seat.setting is not None and seat.setting.text == "7c | As Kd"
