"""The house's chips at tables with computers: a player wins at most the server's daily cap."""

from __future__ import annotations

import re

from storage.audit import audit
from tables.config import make_config
from tables.events import Part, ShowdownSettled
from tests.tables.helpers import CHANNEL, GUILD, HOST, World, play_against_computers

#: The server's cap when it changed nothing (storage/settings.py).
DAILY_CAP = 100
BANKROLL = 3_000


async def test_a_player_who_always_takes_the_suggestion_wins_at_most_the_daily_cap_from_the_house(
    world: World,
) -> None:
    # Standard heads-up against a casual computer with an ante of 100: the solver's hands take
    # the pot of 200 more often than not, and each pot taken pays more than the cap.
    await world.storage.players.grant(GUILD, HOST, BANKROLL, admin_id=1)
    await world.manager.create(
        GUILD, CHANNEL, HOST, make_config("standard", ante=100, seats=2, fill="casual")
    )
    won = 0
    capped: ShowdownSettled | None = None
    for _ in range(12):
        await world.manager.start(GUILD, CHANNEL, HOST)
        showdown = await play_against_computers(world)
        won += showdown.nets[HOST]
        assert won <= DAILY_CAP
        if any(note.user == HOST for note in showdown.notes):
            capped = showdown
            break
    assert capped is not None
    [note] = [note for note in capped.notes if note.user == HOST]
    paid = capped.nets[HOST]
    room = DAILY_CAP - (won - paid)  # what the earlier deals of the day left
    found = re.fullmatch(
        r"Host won (\d+) chips from the house's computers, more than today's cap leaves"
        rf" \({room} of {DAILY_CAP} a day\): the house keeps (\d+)\.",
        note.render(lambda user: "Host"),
    )
    assert found is not None, note.text
    assert paid == room and int(found[1]) == room + int(found[2])
    # The player's chips by kind show the cut, and sum to what reached them.
    [seat] = [seat for seat in capped.seats if seat.user == HOST]
    assert sum(part.chips for part in seat.breakdown) == paid
    assert Part("daily cap", -int(found[2])) in seat.breakdown
    # The cut stays with the house: the books balance, and the house lost only what was paid.
    report = await audit(world.database, GUILD)
    assert report.is_consistent, report.problems
    assert report.house == -won
    assert await world.storage.players.balance(GUILD, HOST) == 1_000 + BANKROLL + won
