"""A showdown as a message: its players' names for the picture and its text with mentions,
shared by the publisher (as a game ends) and ``/replay`` (any finished game again)."""

from __future__ import annotations

import discord

from cogs.common import mention, mentions, player_names
from render.style import signed
from storage import Storage
from tables.computers import computer_name
from tables.events import SeatResult, ShowdownSettled


async def showdown_names(
    client: discord.Client, storage: Storage, guild_id: int, event: ShowdownSettled
) -> dict[int, str]:
    """Every seat's name for the picture: a person's kept name, a computer's level."""
    people = [seat.user for seat in event.seats if seat.computer is None]
    names = await player_names(client, storage, guild_id, people)
    return names | {s.user: computer_name(s.user, s.computer) for s in event.seats if s.computer}


def showdown_pings(event: ShowdownSettled) -> discord.AllowedMentions:
    """Whom the showdown post notifies: the game's people (those who surrendered too), never
    anyone else a note might name."""
    people = [discord.Object(seat.user) for seat in event.seats if seat.user > 0]
    return discord.AllowedMentions(users=people, roles=False, everyone=False, replied_user=False)


def breakdown_text(seat: SeatResult) -> str:
    """How a player's chips came about, kind by kind: what reconciles them with the points
    ("<@1> -35 chips: points -25 (-5 points), buy-in -5, ante -5")."""
    return f"{mention(seat.user)} {breakdown_line(seat)}"


def breakdown_line(seat: SeatResult) -> str:
    """A player's chips and how they came about, the same wherever a game's result is shown
    (the showdown, Review, ``/history``): "-35 chips: points -25 (-5 points), ante -10", or
    each wager's chips in the games against the house."""
    parts = [f"{wager.name} {signed(wager.chips)}" for wager in seat.wagers]
    for part in () if seat.wagers else seat.breakdown:
        scored = ""
        if part.kind == "points" and seat.points is not None:
            scored = f" ({signed(seat.points)} point{'' if abs(seat.points) == 1 else 's'})"
        parts.append(f"{part.kind} {signed(part.chips)}{scored}")
    return f"{signed(seat.net)} chips" + (": " + ", ".join(parts) if parts else "")


def showdown_text(event: ShowdownSettled, *, heading: str = "Showdown") -> str:
    """The nets, each house wager, the table's notes and who the table set hands for."""
    practice = " Practice: no chips moved." if event.practice else ""
    text = f"**{heading}, game {event.game_id}.**{practice} " + ", ".join(
        f"{mention(user)} {signed(net)} chips" for user, net in event.nets.items()
    )
    parts = [breakdown_text(seat) for seat in event.seats if seat.breakdown and not seat.wagers]
    wagers = [
        f"{mention(seat.user)}: "
        + ", ".join(f"{w.name} {signed(w.chips)} ({w.reason})" for w in seat.wagers)
        for seat in event.seats
        if seat.wagers
    ]
    lines = [text, *parts, *wagers, *(note.render(mention) for note in event.notes)]
    by_table = [seat.user for seat in event.seats if seat.set_by == "solver"]
    if by_table:
        lines.append(f"Hands set by the table at the deadline: {mentions(by_table)}.")
    return "\n".join(lines)
