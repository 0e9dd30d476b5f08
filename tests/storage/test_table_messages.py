"""Each channel's table message of the game under way, on both stores: any process finds it by
the channel and the game, and the next game's message replaces it."""

from __future__ import annotations

from storage import Storage

GUILD, CHANNEL, OTHER_CHANNEL = 1001, 2002, 2003


async def test_a_channels_message_is_found_for_its_game_only(store: Storage) -> None:
    messages = store.messages
    assert await messages.find(GUILD, CHANNEL, 7) is None
    await messages.remember(GUILD, CHANNEL, 7, 9_000_000_000_000_000_001)
    await messages.remember(GUILD, OTHER_CHANNEL, 8, 9_000_000_000_000_000_002)
    assert await messages.find(GUILD, CHANNEL, 7) == 9_000_000_000_000_000_001
    assert await messages.find(GUILD, CHANNEL, 8) is None  # another game's message: none
    # The channel's next game shows in its own message.
    await messages.remember(GUILD, CHANNEL, 9, 9_000_000_000_000_000_003)
    assert await messages.find(GUILD, CHANNEL, 7) is None
    assert await messages.find(GUILD, CHANNEL, 9) == 9_000_000_000_000_000_003
    assert await messages.find(GUILD, OTHER_CHANNEL, 8) == 9_000_000_000_000_000_002
