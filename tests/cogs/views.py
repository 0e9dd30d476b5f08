"""Every view and form the bot sends, at its largest (the largest ids and holdings the bot can
produce), in any language, and the checks of Discord's component limits on them: shared by the
contract tests and the languages' tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import discord

from cogs.arrange import arrange_view, confirm_view, take_view
from cogs.board import board_view
from cogs.boards import Board
from cogs.builder import build_text, build_view, place_view
from cogs.challenge_hands import challenge_place, play_view, preview_view
from cogs.declare import declare_view
from cogs.lobby import lobby_view, next_hand_view
from cogs.rules import pages_view
from cogs.tournament import registration_view
from engine.cards import Shoe
from tables.challenge import CHALLENGE_GAMES
from tables.events import Lobby
from tables.games import GAMES, GameSpec, rules_card
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


def builder_views(locale: str = "en-US") -> Iterator[tuple[str, discord.ui.View, str]]:
    """The builder at every step of a largest holding of every game (in ``locale``'s
    language)."""
    yield from table_builder_views(locale)
    # The challenge's builder: the same steps, its own ids (game and day instead of a game id).
    for spec in CHALLENGE_GAMES:
        place = challenge_place(spec.name, "9999-12-31")
        for seed in range(3):
            held = largest_holding(spec, seed)
            slots: list[list[int]] = []
            left = list(range(len(held)))
            yield (
                f"{spec.name} challenge build",
                place_view(spec, place, held, slots, locale=locale),
                "",
            )
            for slot in setting_shape(spec):
                slots.append(left[: min(slot.sizes)])
                left = left[min(slot.sizes) :]
                yield (
                    f"{spec.name} challenge build",
                    place_view(spec, place, held, slots, locale=locale),
                    "",
                )
            slots[-1] += left  # every card held in a hand: the longest state an id carries
            yield (
                f"{spec.name} challenge build all",
                place_view(spec, place, held, slots, locale=locale),
                "",
            )
            moving = slots[-1][-1]
            yield (
                f"{spec.name} challenge build moving",
                place_view(spec, place, held, slots, moving=moving, locale=locale),
                "",
            )


def table_builder_views(locale: str = "en-US") -> Iterator[tuple[str, discord.ui.View, str]]:
    """A table's builder at every step of a largest holding of every game."""
    for name, spec in GAMES.items():
        for seed in range(3):
            held = largest_holding(spec, seed)
            shape = setting_shape(spec)
            slots: list[list[int]] = []
            left = list(range(len(held)))
            yield (
                f"{name} build start",
                build_view(spec, BIG_GAME, held, slots, locale=locale),
                build_text(spec, held, slots, locale=locale),
            )
            for slot in shape:
                take = min(slot.sizes)
                slots.append(left[:take])
                left = left[take:]
                yield (
                    f"{name} build {len(slots)}",
                    build_view(spec, BIG_GAME, held, slots, locale=locale),
                    build_text(spec, held, slots, locale=locale),
                )
            moving = slots[-1][-1]
            yield (
                f"{name} build moving",
                build_view(spec, BIG_GAME, held, slots, moving=moving, locale=locale),
                build_text(spec, held, slots, moving=moving, locale=locale),
            )


def every_view(locale: str = "en-US") -> Iterator[tuple[str, discord.ui.View]]:
    """Every view the bot sends, at its largest, labelled in ``locale``'s language (the views
    of other parts of the bot in English)."""
    yield "lobby", lobby_view(locale=locale)
    computers = tuple((-number, "strong") for number in range(1, 6))
    lobby = Lobby("showdown", 10, 6, BIG_ID, (BIG_ID, *(user for user, _ in computers)), computers)
    yield "lobby with computers", lobby_view(lobby, locale=locale)
    yield "next hand", next_hand_view(BIG_GAME, locale=locale)
    for spec in CHALLENGE_GAMES:
        yield f"{spec.name} challenge", play_view(spec.name, "9999-12-31", locale=locale)
    yield "next hand, summary", next_hand_view(BIG_GAME, summary=True, locale=locale)
    for name in GAMES:
        board = Board(BIG_GAME, (BIG_ID,) * 6, 10**9, game=name)
        yield f"{name} board", board_view(board)
    for round_ in range(3):
        yield f"declare {round_}", declare_view(BIG_ID, BIG_ID, BIG_GAME, round_, locale=locale)
    yield "arrange", arrange_view(BIG_ID, BIG_ID, BIG_GAME, locale=locale)
    yield "take", take_view(BIG_ID, BIG_ID, BIG_GAME, locale=locale)
    for name, spec in GAMES.items():
        for seed in range(3):
            held = largest_holding(spec, seed)
            setting = quick_arranger(spec, held)
            yield (
                f"{name} confirm",
                confirm_view(BIG_ID, BIG_ID, BIG_GAME, held, setting, locale=locale),
            )
    for spec in CHALLENGE_GAMES:
        for seed in range(3):
            held = largest_holding(spec, seed)
            setting = quick_arranger(spec, held)
            day = "9999-12-31"
            yield (
                f"{spec.name} challenge preview",
                preview_view(spec.name, day, held, setting, locale=locale),
            )
    for name, view, _ in builder_views(locale):
        yield name, view
    for name, spec in GAMES.items():
        card = rules_card(spec)
        for index in range(len(card.pages)):
            yield f"{name} rules page {index + 1}", pages_view(name, card, index)
    yield "tournament registration", registration_view(BIG_GAME, locale=locale)


def components(payload: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for row in payload:
        yield from row.get("components", [])


def keeps_to_discords_limits(name: str, view: discord.ui.View) -> None:
    """Assert a view's rows, ids, labels, placeholders and options fit Discord."""
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


def form_keeps_to_discords_limits(modal: discord.ui.Modal) -> None:
    """Assert a form's title and fields fit Discord."""
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
