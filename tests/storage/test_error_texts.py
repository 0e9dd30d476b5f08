"""Storage's refusals read in the player's language, players and channels named as the reader's
edge names them (a mention in Discord); each keeps what the caller reads off it (``needs``,
``shortfalls``, the channel) and its text when it crosses a worker process."""

from __future__ import annotations

import pickle

import pytest

import i18n
from engine.text import PlainNames
from storage import Storage
from storage.errors import SeatTakenError, ShortOfChipsError, StorageError, TakeTooLargeError
from storage.tournaments import RegistrationError
from tests.storage.helpers import ADMIN, CHANNEL, GUILD, FakeClock

ALICE, BOB = 11, 12
START = 1_000


class Mentions(PlainNames):
    """Players and channels named as Discord shows them."""

    def user(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def channel(self, channel_id: int) -> str:
        return f"<#{channel_id}>"


NAMES = Mentions()


def read(error: StorageError, locale: str) -> str:
    return i18n.localize(locale, error.text, NAMES)


async def test_short_of_chips_names_each_player_in_the_readers_language(store: Storage) -> None:
    for user in (ALICE, BOB):
        await store.players.get_or_create(GUILD, user)
    await store.players.take(GUILD, BOB, START - 5, admin_id=ADMIN)
    game = await store.games.create(guild_id=GUILD, channel_id=CHANNEL, game="showdown")
    with pytest.raises(ShortOfChipsError) as raised:
        await store.chips.escrow(game.id, {ALICE: 2_500, BOB: 10}, "ante")
    error = raised.value
    assert error.needs == {ALICE: (START, 2_500), BOB: (5, 10)}
    assert error.shortfalls == {ALICE: 1_500, BOB: 5}
    assert str(error) == (
        f"Not enough chips: player {ALICE} has 1,000 and needs 2,500; "
        f"player {BOB} has 5 and needs 10."
    )
    assert error.sentence(NAMES) == (
        f"Not enough chips: <@{ALICE}> has 1,000 and needs 2,500; <@{BOB}> has 5 and needs 10."
    )
    assert read(error, "de") == (
        f"Nicht genug Chips: <@{ALICE}> hat 1.000 und braucht 2.500; <@{BOB}> hat 5 und braucht 10."
    )
    assert read(error, "zh-CN") == (
        f"筹码不足：<@{ALICE}>有 1,000，需要 2,500；<@{BOB}>有 5，需要 10。"
    )
    assert read(error, "es-ES") == (
        f"No hay fichas suficientes: <@{ALICE}> tiene 1.000 y necesita 2.500; "
        f"<@{BOB}> tiene 5 y necesita 10."
    )
    copied = pickle.loads(pickle.dumps(error))
    assert (type(copied), copied.needs, copied.shortfalls) == (
        ShortOfChipsError,
        error.needs,
        error.shortfalls,
    )
    assert read(copied, "de") == read(error, "de")


async def test_a_seat_taken_elsewhere_names_the_channel_in_the_readers_language(
    store: Storage,
) -> None:
    await store.snapshots.save(guild_id=GUILD, channel_id=CHANNEL, state={}, players=[ALICE])
    with pytest.raises(SeatTakenError) as raised:
        await store.snapshots.save(
            guild_id=GUILD, channel_id=CHANNEL + 1, state={}, players=[ALICE]
        )
    error = raised.value
    assert (error.user_id, error.channel_id) == (ALICE, CHANNEL)
    assert str(error) == (
        f"You already sit at a table in channel {CHANNEL}; a player sits at one table per server."
    )
    assert read(error, "de") == (
        f"Du sitzt schon an einem Tisch in <#{CHANNEL}>; jeder Spieler sitzt an einem Tisch pro "
        "Server."
    )
    assert read(error, "zh-CN") == (
        f"你已在 <#{CHANNEL}> 的一张牌桌入座；每位玩家在每个服务器只能坐一张牌桌。"
    )
    assert read(error, "es-ES").startswith(f"Ya estás sentado en una mesa en <#{CHANNEL}>;")
    copied = pickle.loads(pickle.dumps(error))
    assert (copied.user_id, copied.channel_id, str(copied)) == (ALICE, CHANNEL, str(error))


async def test_an_admins_take_too_large_reads_in_the_readers_language(store: Storage) -> None:
    await store.players.get_or_create(GUILD, ALICE)
    with pytest.raises(TakeTooLargeError) as raised:
        await store.players.take(GUILD, ALICE, 1_001, admin_id=ADMIN)
    error = raised.value
    assert (error.user_id, error.balance, error.amount) == (ALICE, START, 1_001)
    assert str(error) == f"player {ALICE} has only 1,000 chips to take, not 1,001."
    assert read(error, "de") == f"<@{ALICE}> hat nur 1.000 Chips zum Nehmen, nicht 1.001."
    assert read(error, "zh-CN") == f"<@{ALICE}>只有 1,000 个筹码可扣，而不是 1,001。"
    assert read(error, "fr") == f"<@{ALICE}> n'a que 1\u202f000 jetons à retirer, pas 1\u202f001."
    copied = pickle.loads(pickle.dumps(error))
    assert (copied.user_id, copied.balance, copied.amount) == (ALICE, START, 1_001)


async def test_the_daily_bonus_and_a_tournament_refuse_in_the_readers_language(
    store: Storage, clock: FakeClock
) -> None:
    await store.players.get_or_create(GUILD, ALICE)
    await store.players.claim_daily(GUILD, ALICE)
    clock.advance(hours=1)
    with pytest.raises(StorageError) as raised:
        await store.players.claim_daily(GUILD, ALICE)
    english = str(raised.value)
    assert english.startswith("You have already taken today's daily bonus; the next one is ready")
    assert read(raised.value, "de").startswith("Du hast den heutigen Tagesbonus schon abgeholt;")
    assert read(raised.value, "zh-CN").startswith("你今天已经领取过每日奖励；")
    with pytest.raises(RegistrationError) as refused:
        await store.tournaments.locked(404)
    assert str(refused.value) == "There is no tournament 404."
    assert read(refused.value, "de") == "Es gibt kein Turnier 404."
    assert read(refused.value, "zh-CN") == "不存在锦标赛 404。"


async def test_a_setting_out_of_range_names_the_setting_in_the_readers_language(
    store: Storage,
) -> None:
    with pytest.raises(StorageError) as raised:
        await store.settings.set(GUILD, daily_bonus=-1)
    assert str(raised.value) == "The daily bonus must be 0 to 1,000,000,000, not -1."
    assert read(raised.value, "de") == "Der Tagesbonus: erlaubt sind 0 bis 1.000.000.000, nicht -1."
    assert read(raised.value, "zh-CN") == "每日奖励必须在 0 到 1,000,000,000 之间，而不是 -1。"


def test_the_longest_refusals_fit_a_discord_message_in_every_language() -> None:
    # A full table of players with the longest ids, each short by the most chips there are.
    most = 1_000_000_000
    needs = {10**18 + seat: (most - 1, most) for seat in range(6)}
    errors: list[StorageError] = [
        ShortOfChipsError(needs),
        SeatTakenError(10**18, 2**63 - 1),
        TakeTooLargeError(10**18, most, most + 1),
    ]
    for locale in ("en-US", *(language.discord for language in i18n.LANGUAGES)):
        for error in errors:
            assert len(read(error, locale)) <= 2_000, (locale, type(error).__name__)
