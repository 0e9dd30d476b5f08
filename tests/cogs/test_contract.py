"""Every view and form the bot sends, at its largest, against Discord's component limits.

Discord refuses a message whose components break a limit (400, "Invalid Form Body"), which a
player sees as a button that never came; these are checked here with the largest ids and
holdings the bot can produce, not the friendly ones of the other tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from cogs.views import (
    DYNAMIC_ITEMS,
    HandsModal,
    arrange_view,
    build_text,
    build_view,
    confirm_view,
    declare_view,
    hand_view,
    lobby_view,
    next_hand_view,
    take_view,
)
from engine.cards import Shoe
from tables.games import GAMES, GameSpec
from tables.hands import setting_shape
from tests.tables.helpers import quick_arranger

BIG_ID = 2**63 - 1  # the largest snowflake: 19 digits
BIG_GAME = 9_999_999_999

CUSTOM_ID, LABEL, OPTIONS, OPTION_TEXT, PLACEHOLDER = 100, 80, 25, 100, 150
ROWS, PER_ROW = 5, 5
MODAL_TITLE, MODAL_INPUTS, INPUT_LABEL, INPUT_PLACEHOLDER, INPUT_LENGTH = 45, 5, 45, 100, 4000
MESSAGE = 2000


def largest_holding(spec: GameSpec, seed: int) -> list[Any]:
    """As many cards as a player of this game ever holds, from the game's own shoe."""
    size = spec.variant.max_held if spec.variant is not None else spec.deal
    shoe = Shoe(decks=spec.decks, jokers=spec.jokers, rng=random.Random(seed))
    return list(shoe.deal(size))


def builder_views() -> Iterator[tuple[str, discord.ui.View, str]]:
    """The builder at every step of a largest holding of every game."""
    for name, spec in GAMES.items():
        for seed in range(3):
            held = largest_holding(spec, seed)
            shape = setting_shape(spec)
            slots: list[list[int]] = []
            left = list(range(len(held)))
            yield (
                f"{name} build start",
                build_view(spec, BIG_GAME, held, slots),
                build_text(spec, held, slots),
            )
            for slot in shape:
                take = min(slot.sizes)
                slots.append(left[:take])
                left = left[take:]
                yield (
                    f"{name} build {len(slots)}",
                    build_view(spec, BIG_GAME, held, slots),
                    build_text(spec, held, slots),
                )


def every_view() -> Iterator[tuple[str, discord.ui.View]]:
    yield "lobby", lobby_view()
    yield "next hand", next_hand_view()
    yield "hand", hand_view(BIG_GAME)
    for round_ in range(3):
        yield f"declare {round_}", declare_view(BIG_ID, BIG_ID, BIG_GAME, round_)
    yield "arrange", arrange_view(BIG_ID, BIG_ID, BIG_GAME)
    yield "take", take_view(BIG_ID, BIG_ID, BIG_GAME)
    for name, spec in GAMES.items():
        for seed in range(3):
            held = largest_holding(spec, seed)
            setting = quick_arranger(spec, held)
            yield f"{name} confirm", confirm_view(BIG_ID, BIG_ID, BIG_GAME, held, setting)
    for name, view, _ in builder_views():
        yield name, view


def components(payload: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for row in payload:
        yield from row.get("components", [])


@pytest.mark.parametrize(("name", "view"), list(every_view()), ids=lambda v: str(v)[:30])
def test_every_view_keeps_to_discords_limits(name: str, view: discord.ui.View) -> None:
    payload = view.to_components()
    assert len(payload) <= ROWS, name
    for row in payload:
        assert row["type"] == 1 and 1 <= len(row["components"]) <= PER_ROW, name
    for item in components(payload):
        assert len(item["custom_id"]) <= CUSTOM_ID, (name, item["custom_id"])
        assert len(item.get("label", "")) <= LABEL, name
        assert len(item.get("placeholder", "")) <= PLACEHOLDER, name
        if item["type"] == 3:
            options = item["options"]
            assert 1 <= len(options) <= OPTIONS, name
            assert len({o["value"] for o in options}) == len(options), name
            assert len({o["label"] for o in options}) == len(options), name  # duplicates told apart
            assert all(len(o["label"]) <= OPTION_TEXT for o in options), name
            assert 0 <= item["min_values"] <= item["max_values"] <= len(options), name


@pytest.mark.parametrize(("name", "view"), list(every_view()), ids=lambda v: str(v)[:30])
def test_every_persistent_control_is_found_again_after_a_restart(
    name: str, view: discord.ui.View
) -> None:
    # A restart keeps only what a custom id says: each control must match exactly one template.
    for item in components(view.to_components()):
        matches = [
            factory
            for factory in DYNAMIC_ITEMS
            if factory.__discord_ui_compiled_template__.fullmatch(item["custom_id"])
        ]
        assert len(matches) == 1, (name, item["custom_id"])


def test_builder_messages_stay_within_a_message() -> None:
    for name, _, text in builder_views():
        assert len(text) <= MESSAGE, name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hands_form_keeps_to_discords_limits(game: str) -> None:
    spec = GAMES[game]
    draft = " | ".join(["Ks Kh Kd Kc W"] * 6) + " || 2c 3d 4h"
    modal = HandsModal(BIG_ID, BIG_ID, BIG_GAME, BIG_ID, spec=spec, draft=draft)
    payload = modal.to_dict()
    assert len(payload["title"]) <= MODAL_TITLE
    assert len(payload["custom_id"]) <= CUSTOM_ID
    inputs = list(components(payload["components"]))
    assert 1 <= len(inputs) <= MODAL_INPUTS
    for item in inputs:
        assert len(item["label"]) <= INPUT_LABEL
        assert len(item.get("placeholder", "")) <= INPUT_PLACEHOLDER
        assert item.get("max_length", 0) <= INPUT_LENGTH
        assert len(item.get("value") or "") <= item.get("max_length", INPUT_LENGTH)
