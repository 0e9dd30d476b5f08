"""What a tournament hand counts for: its chips are tournament chips (a ledger scope of its
own), so the showdown carries its scope and the server's statistics, ratings and achievements
pass it by; the same hand at a server table counts (both stores)."""

from __future__ import annotations

from storage import Storage
from storage.tournaments import chip_scope
from tables.achievements import Achievements
from tables.codec import decode_event, encode_event
from tables.events import ShowdownSettled
from tables.ratings import PlayerRatings
from tables.statistics import PlayerStatistics
from tables.subscribers import Delivery
from tests.storage.helpers import CHANNEL, GUILD, FakeClock
from tests.tables.helpers import settled

ANN, BOB = 11, 12


def showdown(game_id: int, scope: int | None) -> ShowdownSettled:
    """Ann took 300 chips from Bob; ``scope``: the chips' ledger scope (None: the server's)."""
    return settled(game_id, {ANN: 300, BOB: -300}, game="showdown", scope=scope)


async def _hear(store: Storage, clock: FakeClock, scope: int | None) -> None:
    """A game row, then its showdown handed to the statistics, ratings and achievements."""
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    event = showdown(game.id, scope)
    where = Delivery(game.id, GUILD, CHANNEL, game.id, clock())
    for subscriber in (
        PlayerStatistics(store.statistics),
        PlayerRatings(store.ratings),
        Achievements(store.achievements, store.settings),
    ):
        async with store.database.transaction():
            await subscriber.handle(event, where)


async def _counted(store: Storage) -> dict[str, int]:
    counts = {}
    for table in ("player_stats", "rated_games", "achievements", "achievement_games"):
        row = await store.database.fetchone(f"SELECT COUNT(*) FROM {table}")
        assert row is not None
        counts[table] = row[0]
    return counts


def test_a_showdown_keeps_its_scope_and_an_older_row_without_one_is_the_servers() -> None:
    event = showdown(5, chip_scope(3))
    assert decode_event(encode_event(event)) == event
    assert not event.moved_server_chips
    older = encode_event(showdown(5, None))
    older.pop("scope", None)  # a row queued before the field was there
    decoded = decode_event(older)
    assert isinstance(decoded, ShowdownSettled)
    assert decoded.scope is None and decoded.moved_server_chips


async def test_a_tournament_hand_counts_in_no_statistics_rating_or_achievement(
    store: Storage, clock: FakeClock
) -> None:
    await _hear(store, clock, chip_scope(3))
    assert set((await _counted(store)).values()) == {0}
    assert await store.ratings.player(GUILD, ANN) == []
    assert await store.achievements.earned(GUILD, ANN) == []
    # The same hand at a server table counts in each of them.
    await _hear(store, clock, None)
    counted = await _counted(store)
    assert counted["player_stats"] > 0 and counted["rated_games"] == 1
    assert counted["achievement_games"] == 2 and counted["achievements"] > 0
    assert [r.shown > 1_000 for r in await store.ratings.player(GUILD, ANN)] == [True]
