"""Suggest while the solver's best is still being made: a first suggestion at once, which the
best replaces in the same message when it comes; Take it takes whichever is shown."""

from __future__ import annotations

from typing import Any

from tests.cogs.helpers import Scene, labels, open_table, the_table
from tests.tables.helpers import GatedOffload


class HeldWorkers(GatedOffload):
    """The workers held shut, as the simulated Discord is told: the bot waits on them on
    purpose, so it counts as settled meanwhile."""

    def __init__(self, inner: Any, env: Any) -> None:
        super().__init__(inner, only=("suggest_setting",))
        self.env = env

    async def held(self) -> None:
        await self.env.external_wait(self.gate.wait(), reason="the test holds the workers shut")


async def test_a_suggest_before_the_best_is_made_shows_a_first_answer_then_the_best(
    scene: Scene,
) -> None:
    tables = scene.tables
    tables.prepare_suggestions = True
    tables.flow.prepared = tables.suggestions.ready
    gated = HeldWorkers(tables.offload, scene.env)
    tables.offload = gated
    ann, _ = await open_table(scene, "no-surrender", 2)
    assert (await ann.slash(scene.channel, "table start")).acknowledged
    await gated.until_asked(2)  # both holdings went to the workers as the phase opened
    shown = await ann.user.click(ann.user.dm_channel.last_message, label="Suggest")
    assert shown.acknowledged
    message = shown.response.message
    first = message.content
    assert first.startswith(
        "**A first suggestion**, made at once; the solver's best replaces it here in a moment."
    ), first
    assert labels(message) and "Take it" in labels(message)
    gated.gate.set()
    await scene.env.settle()
    best = shown.response.content  # the same message, read again
    assert not best.startswith("**A first suggestion**") and "Take it as it is" in best, best
    table = await the_table(scene)
    assert table is not None and table.game_id is not None
    made = tables.suggestions.ready(table.game_id, ann.id)
    assert made is not None and f"`{made.setting.text}`" in best
    taken = await ann.user.click(shown.response.message, label="Take it")
    assert taken.acknowledged
    table = await the_table(scene)
    assert table is not None and ann.id not in table.waiting_for()


async def test_a_suggest_as_the_bot_shuts_down_is_told_it_is_restarting(scene: Scene) -> None:
    # The database or the workers may already be closing: whatever fails, the player reads
    # that the bot is restarting, not that something went wrong.
    ann, _ = await open_table(scene, "no-surrender", 2)
    assert (await ann.slash(scene.channel, "table start")).acknowledged
    suggest = ann.user.dm_channel.last_message

    async def pool_closing(*args: Any) -> Any:
        raise RuntimeError("pool is closing")

    scene.tables.suggest_now = pool_closing
    scene.tables.activity.closing = True
    shown = await ann.user.click(suggest, label="Suggest")
    assert shown.response.content == "The bot is restarting; try again in a moment."
    scene.tables.activity.closing = False
