"""Every view and form the bot sends, at its largest, against Discord's component limits.

Discord refuses a message whose components break a limit (400, "Invalid Form Body"), which a
player sees as a button that never came; these are checked here with the largest ids and
holdings the bot can produce, not the friendly ones of the other tests.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from cogs.arrange import HandsModal, arrange_view, confirm_view, take_view
from cogs.board import board_view
from cogs.boards import Board
from cogs.builder import build_text, build_view, place_view
from cogs.challenge_hands import challenge_place, play_view, preview_view
from cogs.controls import DYNAMIC_ITEMS, CustomId
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


@pytest.mark.parametrize(("name", "view"), list(every_view()), ids=lambda v: str(v)[:30])
def test_every_view_keeps_to_discords_limits(name: str, view: discord.ui.View) -> None:
    keeps_to_discords_limits(name, view)


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


#: The formats of the buttons already in players' messages, as released: an upgrade that stops
#: matching one turns those buttons into "not one of this bot's".
RELEASED = {
    # sit and stand (Join and Leave under a showdown) joined join, leave, start and again;
    # then computer (Add computer, on the lobby).
    "LobbyButton": r"pp:lobby:(?P<action>join|leave|start|computer|again|sit|stand)",
    "RemoveComputerSelect": r"pp:remove:computer",
    "ReviewButton": r"pp:review:(?P<game>\d+)",
    "FullShowdownButton": r"pp:full:(?P<game>\d+)",
    "DeclareButton": r"pp:declare:(?P<guild>\d+):(?P<channel>\d+):(?P<game>\d+):(?P<round>\d+)"
    r":(?P<choice>play|surrender)",
    "HandButton": r"pp:hand:(?P<game>\d+)",
    "RulesButton": r"pp:rules:(?P<game>[a-z-]+)",
    "RulesPageButton": r"pp:rulespage:(?P<game>[a-z-]+):(?P<page>\d+)",
    "SuggestButton": r"pp:suggest:(?P<guild>\d+):(?P<channel>\d+):(?P<game>\d+)",
    "TakeButton": r"pp:take:(?P<guild>\d+):(?P<channel>\d+):(?P<game>\d+)",
    "TypeButton": r"pp:type:(?P<guild>\d+):(?P<channel>\d+):(?P<game>\d+)",
    "ConfirmButton": r"pp:confirm:(?P<game>\d+):(?P<state>[0-9a-z_-]+):(?P<auto>\d*)",
    # suggested (Start from the suggestion) joined start, undo, reset and submit.
    "BuildItem": r"pp:build:(?P<game>\d+):(?P<state>[0-9a-z_-]+)"
    r":(?P<action>start|undo|reset|submit|suggested)",
    "MoveSelect": r"pp:build:(?P<game>\d+):(?P<state>[0-9a-z_-]+):move",
    "MoveToSelect": r"pp:build:(?P<game>\d+):(?P<state>[0-9a-z_-]+):to:(?P<card>[0-9a-z])",
    "SwapSelect": r"pp:build:(?P<game>\d+):(?P<state>[0-9a-z_-]+):swap",
    "BuildSelect": r"pp:build:(?P<game>\d+):(?P<state>[0-9a-z_-]+):pick",
    "TournamentButton": r"pp:tourney:(?P<action>register|unregister):(?P<tournament>\d+)",
    "ChallengeTypeButton": r"pp:challenge:type:(?P<game>[a-z-]+):(?P<day>\d+)",
    "ChallengeConfirmButton": r"pp:challenge:confirm:(?P<game>[a-z-]+):(?P<day>\d+)"
    r":(?P<state>[0-9a-z_-]+):(?P<auto>\d*)",
    "ChallengeBuildItem": r"pp:challenge:build:(?P<game>[a-z-]+):(?P<day>\d+)"
    r":(?P<state>[0-9a-z_-]+):(?P<action>start|undo|reset|submit)",
    "ChallengeBuildSelect": r"pp:challenge:build:(?P<game>[a-z-]+):(?P<day>\d+)"
    r":(?P<state>[0-9a-z_-]+):pick",
    "ChallengeMoveSelect": r"pp:challenge:build:(?P<game>[a-z-]+):(?P<day>\d+)"
    r":(?P<state>[0-9a-z_-]+):move",
    "ChallengeMoveToSelect": r"pp:challenge:build:(?P<game>[a-z-]+):(?P<day>\d+)"
    r":(?P<state>[0-9a-z_-]+):to:(?P<card>[0-9a-z])",
    "ChallengeSwapSelect": r"pp:challenge:build:(?P<game>[a-z-]+):(?P<day>\d+)"
    r":(?P<state>[0-9a-z_-]+):swap",
}


def test_a_custom_id_format_gives_the_template_and_the_formatter() -> None:
    format_ = CustomId("pp:declare:{game:int}:{round:int}:{choice:play|surrender}")
    assert format_.template.pattern == (
        r"pp:declare:(?P<game>\d+):(?P<round>\d+):(?P<choice>play|surrender)"
    )
    custom_id = format_.format(game=12, round=0, choice="play")
    assert custom_id == "pp:declare:12:0:play"
    match = format_.template.fullmatch(custom_id)
    assert match is not None and format_.parse(match) == {"game": 12, "round": 0, "choice": "play"}
    with pytest.raises(ValueError, match="does not fit"):
        format_.format(game=12, round=0, choice="fold")


def every_control() -> Iterator[tuple[str, Any]]:
    for name, view in every_view():
        for control in view.children:
            yield name, control


def test_every_registered_control_is_sent_in_some_view() -> None:
    sent = {type(control) for _, control in every_control()}
    assert sent == set(DYNAMIC_ITEMS)
    assert {control.__name__ for control in DYNAMIC_ITEMS} == set(RELEASED)


async def test_every_control_id_round_trips_through_its_one_format() -> None:
    for name, control in every_control():
        custom_id = control.custom_id
        match = control.ID.template.fullmatch(custom_id)
        assert match is not None, (name, custom_id)
        fields = control.ID.parse(match)
        assert control.ID.format(**fields) == custom_id, name
        rebuilt = await type(control).from_custom_id(None, control.item, match)
        assert rebuilt.custom_id == custom_id, name
        assert all(getattr(rebuilt, field, value) == value for field, value in fields.items())


def test_every_control_keeps_the_custom_id_format_it_was_released_with() -> None:
    sent = [control.custom_id for _, control in every_control()]
    probes = {
        *sent,
        *(custom_id + "x" for custom_id in sent),
        *(custom_id[:-1] for custom_id in sent),
        *(custom_id.replace(":", "::", 1) for custom_id in sent),
        "pp:lobby:pick",
        "pp:declare:1:2:3:0:fold",
        "pp:hand:",
        "pp:confirm:1:_:",
        "pp:confirm:1:AB:2",
        "pp:build:1:_:pick",
        "pp:build:1:0-1:undo",
    }
    for control in DYNAMIC_ITEMS:
        released = re.compile(RELEASED[control.__name__])
        for probe in probes:
            now = control.ID.template.fullmatch(probe)
            assert bool(now) == bool(released.fullmatch(probe)), (control.__name__, probe)


def test_builder_messages_stay_within_a_message() -> None:
    for name, _, text in builder_views():
        assert len(text) <= MESSAGE, name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hands_form_keeps_to_discords_limits(game: str) -> None:
    spec = GAMES[game]
    draft = " | ".join(["Ks Kh Kd Kc W"] * 6) + " || 2c 3d 4h"
    form_keeps_to_discords_limits(
        HandsModal(BIG_ID, BIG_ID, BIG_GAME, BIG_ID, spec=spec, draft=draft)
    )


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
