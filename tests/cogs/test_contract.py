"""Every view and form the bot sends, at its largest, against Discord's component limits.

Discord refuses a message whose components break a limit (400, "Invalid Form Body"), which a
player sees as a button that never came; these are checked here with the largest ids and
holdings the bot can produce, not the friendly ones of the other tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from cogs.arrange import HandsModal
from cogs.controls import DYNAMIC_ITEMS, CustomId
from tables.games import GAMES
from tests.cogs.views import (
    BIG_GAME,
    BIG_ID,
    MESSAGE,
    builder_views,
    components,
    every_view,
    form_keeps_to_discords_limits,
    keeps_to_discords_limits,
)


@pytest.mark.parametrize(("name", "view"), list(every_view()), ids=lambda v: str(v)[:30])
def test_every_view_keeps_to_discords_limits(name: str, view: discord.ui.View) -> None:
    keeps_to_discords_limits(name, view)


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
