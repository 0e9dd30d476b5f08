"""A button's work that fails as the bot shuts down still ends quietly: Discord's session may be
closed under the answer (aiohttp then refuses the request with a RuntimeError, not a
ClientError), and that must not escape to discord.py as a traceback."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.common import guarded


class ClosedSession:
    """An interaction whose answer was deferred, on a bot shutting down whose HTTP session is
    closed: editing the answer is refused as aiohttp refuses it."""

    def __init__(self, *, closing: bool) -> None:
        activity = SimpleNamespace(closing=closing)
        self.client = SimpleNamespace(
            services=SimpleNamespace(
                tables=SimpleNamespace(activity=activity),
                storage=SimpleNamespace(database=SimpleNamespace(health=None)),
            )
        )
        self.locale = discord.Locale.american_english
        self.response = SimpleNamespace(
            is_done=lambda: True, type=discord.InteractionResponseType.deferred_channel_message
        )

    async def edit_original_response(self, **kwargs: Any) -> None:
        raise RuntimeError("Session is closed")


async def failing() -> None:
    raise ConnectionError("Server disconnected")


async def test_a_failure_answered_on_a_closed_session_as_the_bot_shuts_down_ends_quietly() -> None:
    interaction: Any = ClosedSession(closing=True)
    assert await guarded(interaction, failing()) is False


async def test_a_closed_session_while_the_bot_runs_is_not_hidden() -> None:
    interaction: Any = ClosedSession(closing=False)
    with pytest.raises(RuntimeError):
        await guarded(interaction, failing())
