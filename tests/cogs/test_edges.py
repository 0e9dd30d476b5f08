"""What players do besides the happy path: builders and forms, closed DMs, strangers, stale
buttons, restarts, and players who walk away."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from cogs.builder import held_indices
from cogs.controls import DYNAMIC_ITEMS, NOT_CURRENT
from engine.errors import GameError
from tables.hands import (
    hand_labels,
    hands_so_far_problem,
    read_setting,
    setting_problem,
    setting_shape,
    unsplit_text,
)
from tables.phase import Phase
from tests.cogs.helpers import (
    DIGITS,
    Scene,
    arranging,
    board_message,
    chosen,
    declare_all,
    form_default,
    menu_id,
    open_table,
    play_out,
    preview_sentence,
    set_sentence,
    start_game,
    the_table,
)
from tests.tables.helpers import quick_arranger


async def test_the_builder_sets_hands_one_menu_at_a_time(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    table = await the_table(scene)
    assert table.phase is Phase.ARRANGING
    shape = setting_shape(table.spec)
    for member in players:
        held = await scene.tables.hand(scene.guild.id, scene.channel.id, member.id)
        setting = quick_arranger(table.spec, held)
        picks = held_indices(held, setting.hands)
        shown = await member.user.click(member.user.dm_channel.last_message, label="Build hands")
        assert shown.response.content == (
            "**Building your hands** (Casino Version), weakest first.\n"
            f"Now choose the **Hand 1**: 1 cards, from the {len(held)} left."
        )
        builder = shown.response.message
        # A menu offers every card held.
        menu = next(c for row in builder.components for c in row.children if c.type.value == 3)
        assert len(menu.options) == len(held)
        for position, slot in enumerate(picks):
            picked = await member.user.select(builder, [DIGITS[i] for i in slot])
            assert picked.acknowledged
            if position + 1 < len(shape):
                nxt, left = shape[position + 1], len(held) - sum(map(len, picks[: position + 1]))
                assert picked.response.content.split("\n")[-1] == (
                    f"Now choose the **{nxt.name}**: {nxt.sizes[0]} cards, from the {left} left."
                )
        # Undo takes the last hand back; choosing it again brings Submit back.
        undone = await member.user.click(builder, label="Undo last hand")
        assert undone.response.content.split("\n")[-1] == (
            "Now choose the **Hand 3**: 5 cards, from the 5 left."
        )
        await member.user.select(builder, [DIGITS[i] for i in picks[-1]])
        submitted = await member.user.click(builder, label="Submit")
        built = chosen(held, [sorted(slot) for slot in picks])
        assert submitted.response.content == set_sentence(built)
    table = await the_table(scene)
    assert table.phase is Phase.LOBBY and table.games_played == 1


async def test_the_builder_refuses_a_size_the_hand_cannot_hold(scene: Scene) -> None:
    players = await start_game(scene, "standard", 2)
    await declare_all(scene, players)
    ann = players[0]
    shown = await ann.user.click(ann.user.dm_channel.last_message, label="Build hands")
    builder = shown.response.message
    # The front hand holds 3 or 5 cards: its menu takes 3 to 5, and 4 gets a sentence.
    wrong = await ann.user.select(builder, ["0", "1", "2", "3"])
    assert wrong.ephemeral
    assert wrong.response.content == "The front hand holds 3 or 5 cards, not 4."
    again = await ann.user.select(builder, ["0", "1", "2"])
    assert again.response.content.split("\n")[-1] == (
        "Now choose the **middle hand**: 5 or 6 or 7 cards, from the 14 left."
    )
    assert (await the_table(scene)).seat_of(ann.id).setting is None


async def test_the_form_takes_typed_hands_and_refuses_a_foul(scene: Scene) -> None:
    players = await start_game(scene, "standard", 2)
    await declare_all(scene, players)
    ann = players[0]
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    assert opened.modal is not None
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, ann.id)
    setting = quick_arranger((await the_table(scene)).spec, held)
    # The same cards with the two weakest hands swapped: a foul (or hands of the wrong sizes),
    # refused with the engine's reason. (Front and back swapped now read strongest first.)
    hands = setting.text.split("|")
    fouled = "|".join([hands[1], hands[0], *hands[2:]])
    refused = await ann.user.submit_modal(opened, {"hands": fouled})
    with pytest.raises(GameError) as foul:
        read_setting((await the_table(scene)).spec, held, fouled)
    assert refused.response.content == str(foul.value)
    assert (await the_table(scene)).seat_of(ann.id).setting is None
    reopened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    accepted = await ann.user.submit_modal(
        reopened, {"hands": setting.text, "automatic": setting.automatic or ""}
    )
    assert accepted.response.content == str(preview_sentence(setting))
    assert (await the_table(scene)).seat_of(ann.id).setting is None
    # The preview's button is found again after a restart: it carries the hands in its id.
    await scene.restart()
    confirmed = await ann.user.click(accepted.response.message, label="Set these hands")
    previewed = chosen(held, held_indices(held, setting.hands), setting.automatic)
    assert confirmed.response.content == set_sentence(previewed)
    assert (await the_table(scene)).seat_of(ann.id).setting == previewed


async def test_the_form_reads_hands_strongest_first_and_opens_on_the_last_legal_preview(
    scene: Scene,
) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    ann = players[0]
    held = await scene.tables.hand(scene.guild.id, scene.channel.id, ann.id)
    setting = quick_arranger((await the_table(scene)).spec, held)
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    # Was: an empty form. Nothing suggested or typed yet: the cards in one line, weakest first.
    assert form_default(opened) == unsplit_text(held)
    # Was: "Hand 1 holds 5; it must hold 1 card." for the strongest hand typed first.
    strongest = " | ".join(reversed(setting.text.split(" | ")))
    previewed = await ann.user.submit_modal(opened, {"hands": strongest})
    assert previewed.response.content == str(preview_sentence(setting, strongest_first=True))
    # The form opens again on the last legal preview, even after a foul typed since.
    reopened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    assert form_default(reopened) == setting.text
    fouled = " | ".join([*setting.text.split(" | ")[:-1], "2c 3d 4h 5s 7c"])
    refused = await ann.user.submit_modal(reopened, {"hands": fouled})
    assert refused.response.content and not refused.response.attachments
    again = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    assert form_default(again) == setting.text


async def test_closed_dms_fall_back_to_the_channel_and_hand(scene: Scene) -> None:
    ann, bob = scene.members[:2]
    await open_table(scene, "showdown", 2)
    # Bob's DMs are closed: Discord refuses every message to his DM channel (50007).
    scene.env.inject_error(
        "POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007, times=None
    )
    started = await ann.slash(scene.channel, "table start")
    assert started.acknowledged
    said = [m.content for m in scene.channel.history()]
    assert any(f"<@{bob.id}>, I cannot DM you" in text for text in said)
    shown = await bob.slash(scene.channel, "hand")
    assert shown.acknowledged and shown.ephemeral and shown.response.attachments
    # The Show my hand button of the game's status message serves too.
    phase_message = board_message(scene)
    pressed = await bob.click(phase_message, label="Show my hand")
    assert pressed.ephemeral and pressed.response.attachments
    # Bob plays the whole game from the channel: the private answer carries the phase's buttons.
    await ann.user.click(ann.user.dm_channel.last_message, label="Play")
    while (table := await the_table(scene)) is not None and table.phase is Phase.DECLARING:
        if ann.id in table.waiting_for():
            await ann.user.click(ann.user.dm_channel.last_message, label="Play")
        if bob.id in table.waiting_for():
            mine = await bob.slash(scene.channel, "hand")
            played = await bob.click(mine.response.message, label="Play")
            assert played.response.content == (
                "You declared: play on. It stays secret until everyone has declared."
            )
    assert (await the_table(scene)).phase is Phase.ARRANGING
    mine = await bob.slash(scene.channel, "hand")
    suggested = await bob.click(mine.response.message, label="Suggest")
    taken = await bob.click(suggested.response.message, label="Take it")
    shown = scene.bot.services.suggestions.get((await the_table(scene)).game_id, bob.id)
    assert taken.response.content == set_sentence(shown)


async def test_strangers_get_a_sentence_and_change_nothing(scene: Scene) -> None:
    ann, cy = scene.members[0], scene.members[2]
    await open_table(scene, "showdown", 2)
    lobby = next(m for m in scene.channel.history() if "Join, then the host" in m.content)
    refused = await cy.click(lobby, label="Start")
    # The lobby stays as it was; the sentence goes to the stranger alone.
    [sentence] = refused.followups
    assert sentence.ephemeral and sentence.content == "Only the table's host can start the game."
    assert (await the_table(scene)).phase is Phase.LOBBY
    await ann.slash(scene.channel, "table start")
    phase_message = board_message(scene)
    before = (await the_table(scene)).to_state()
    stranger = await cy.click(phase_message, label="Show my hand")
    assert stranger.ephemeral
    assert stranger.response.content == "You are not seated at this table."
    assert not stranger.response.attachments
    not_his = await cy.slash(scene.channel, "arrange hands", hands="As | Kd")
    assert not_his.ephemeral and not_his.response.content
    assert (await the_table(scene)).to_state() == before


async def test_a_stale_button_says_so(scene: Scene) -> None:
    players = await start_game(scene, "showdown", 2)
    ann = players[0]
    first = ann.user.dm_channel.last_message
    await declare_all_once(players)
    table = await the_table(scene)
    assert table.phase is Phase.DECLARING and table.round == 1
    stale = await ann.user.click(first, label="Surrender")
    assert stale.ephemeral and stale.response.content == str(NOT_CURRENT)
    assert (await the_table(scene)).seat_of(ann.id).is_active


async def declare_all_once(players: list[Any]) -> None:
    for member in players:
        await member.user.click(member.user.dm_channel.last_message, label="Play")


async def test_a_restart_mid_game_keeps_the_old_buttons_working(scene: Scene) -> None:
    players = await start_game(scene, "showdown", 3)
    before = await the_table(scene)
    await scene.restart()
    table = await the_table(scene)
    assert table is not None and table.game_id == before.game_id and table.phase is Phase.DECLARING
    # The DMs sent before the restart still work: declare from them, then suggest and take.
    await play_out(scene, players, "suggest")
    table = await the_table(scene)
    assert table.phase is Phase.LOBBY and table.games_played == 1
    assert any(m.content.startswith("**Showdown, game") for m in scene.channel.history())


async def test_a_form_open_across_a_restart_gets_a_sentence(scene: Scene) -> None:
    players = await start_game(scene, "casino", 2)
    await declare_all(scene, players)
    ann = players[0]
    opened = await ann.user.click(ann.user.dm_channel.last_message, label="Type hands")
    assert opened.modal is not None
    await scene.restart()
    late = await ann.user.submit_modal(opened, {"hands": "As | Kd Kh Ks | 2c 3c 4c 5c 6c"})
    assert late.response.content == "That form was open while the bot restarted; open it again."


async def test_players_who_walk_away_are_played_for_at_each_deadline(scene: Scene) -> None:
    await start_game(scene, "showdown", 3, declare_seconds=30, arrange_seconds=60)
    game = (await the_table(scene)).game_id
    for _ in range(10):
        table = await the_table(scene)
        if table.phase is Phase.LOBBY:
            break
        wait = (
            table.config.declaration_seconds
            if table.phase is Phase.DECLARING
            else table.config.arrangement_seconds
        )
        await scene.env.advance_time(wait + 1)
    table = await the_table(scene)
    assert table.phase is Phase.LOBBY and table.games_played == 1
    said = "\n".join(m.content for m in scene.channel.history())
    assert "Hands set by the table at the deadline" in said
    assert f"**Showdown, game {game}.**" in said
    # Each player learns of the reveal in the DM of the next phase.
    told = "\n".join(m.content for m in scene.members[0].user.dm_channel.history())
    assert "Silent at the deadline" in told


def test_dynamic_items_have_distinct_templates() -> None:
    patterns = [item.__discord_ui_compiled_template__.pattern for item in DYNAMIC_ITEMS]
    assert len(set(patterns)) == len(patterns)


async def test_the_builder_starts_from_the_suggestion_and_mends_hands_in_a_few_taps(
    scene: Scene,
) -> None:
    ann, spec, held = await arranging(scene, "standard")
    taps = 0

    async def tap(result: Any, kind: str = "button") -> Any:
        nonlocal taps
        taps += 1 if kind == "button" else 2  # a menu: open it, then choose
        assert result.acknowledged
        return result

    shown = await tap(await ann.user.click(ann.user.dm_channel.last_message, label="Build hands"))
    builder = shown.response.message
    started = await tap(await ann.user.click(builder, label="Start from the suggestion"))
    builder = started.response.message
    suggestion = (await scene.tables.suggest(scene.guild.id, scene.channel.id, ann.id)).setting
    slots = held_indices(held, suggestion.hands)
    # Was: a player tweaking the suggestion started from nothing, one hand at a time.
    lines = started.response.content.splitlines()
    names = hand_labels(spec, suggestion.hands)
    shape = setting_shape(spec)
    for line, slot, hand, name in zip(lines[1:], shape, suggestion.hands, names, strict=False):
        assert line == f"{slot.name}: {' '.join(c.pretty for c in hand)} · {name}"
    assert lines[-1].endswith("Press **Submit** to set them.")
    assert started.response.attachments  # the hands so far, drawn
    # Move one card of the back hand to the middle hand: a card menu, then a hand menu.
    card = slots[-1][0]
    moving = await tap(
        await ann.user.select(builder, [DIGITS[card]], custom_id=menu_id(builder, ":move")),
        "menu",
    )
    assert moving.response.content.splitlines()[-1] == (
        f"Move the **{held[card].pretty}** to which hand?"
    )
    builder = moving.response.message
    moved = await tap(
        await ann.user.select(builder, [DIGITS[1]], custom_id=menu_id(builder, ":to:")), "menu"
    )
    slots[-1].remove(card)
    slots[1] = sorted([*slots[1], card])
    tweaked = chosen(held, slots)
    problem = setting_problem(spec, held, tweaked)
    if problem is not None:
        assert moved.response.content.splitlines()[-2].endswith(f" ⚠ Not yet: {problem}")
    submitted = await tap(await ann.user.click(moved.response.message, label="Submit"))
    if problem is None:
        assert submitted.response.content == set_sentence(tweaked)
    else:
        assert submitted.response.content == str(problem)
    assert taps <= 8, taps


async def test_swapping_two_hands_says_at_once_why_the_table_would_refuse_them(
    scene: Scene,
) -> None:
    ann, spec, held = await arranging(scene, "casino")
    shown = await ann.user.click(ann.user.dm_channel.last_message, label="Build hands")
    started = await ann.user.click(shown.response.message, label="Start from the suggestion")
    builder = started.response.message
    suggestion = (await scene.tables.suggest(scene.guild.id, scene.channel.id, ann.id)).setting
    slots = held_indices(held, suggestion.hands)
    swapped = await ann.user.select(builder, ["1", "2"], custom_id=menu_id(builder, ":swap"))
    slots[1], slots[2] = slots[2], slots[1]
    problem = setting_problem(spec, held, chosen(held, slots))
    # Was: found only at Submit, then up to four Undos to fix one hand.
    assert problem is not None
    assert swapped.response.content.splitlines()[-2:] == [
        f"Every hand is chosen. ⚠ Not yet: {problem}",
        "Move a card or swap two hands to mend it, or Undo.",
    ]
    back = await ann.user.select(
        swapped.response.message, ["1", "2"], custom_id=menu_id(swapped.response.message, ":swap")
    )
    assert back.response.content.splitlines()[-1] == (
        "Every hand is chosen. Press **Submit** to set them."
    )


async def test_the_builder_says_as_it_goes_when_a_hand_is_weaker_than_the_one_before(
    scene: Scene,
) -> None:
    ann, spec, held = await arranging(scene, "casino")
    by_strength = sorted(range(len(held)), key=lambda i: (held[i].is_joker, held[i].code))
    shown = await ann.user.click(ann.user.dm_channel.last_message, label="Build hands")
    builder = shown.response.message
    # The strongest card in front, then three cards that make a weaker hand: a foul already.
    front = [by_strength[-1]]
    rest = [i for i in range(len(held)) if i not in front]
    middle = next(
        list(trio)
        for trio in itertools.combinations(rest, 3)
        if hands_so_far_problem(spec, [[held[front[0]]], [held[i] for i in trio]]) is not None
    )
    await ann.user.select(builder, [DIGITS[front[0]]])
    picked = await ann.user.select(builder, [DIGITS[i] for i in middle])
    hands = [[held[i] for i in front], [held[i] for i in sorted(middle)]]
    problem = hands_so_far_problem(spec, hands)
    assert problem is not None
    # Was: nothing until Submit.
    assert picked.response.content.splitlines()[-2] == (
        f"⚠ {problem} Undo, or mend it once every hand is chosen."
    )
