"""A showdown as a message: its players' names for the picture and its text with mentions,
shared by the publisher (as a game ends) and ``/replay`` (any finished game again)."""

from __future__ import annotations

from collections.abc import Iterable

import discord

import i18n
from cogs.common import Mentions, mention, mentions, player_names
from engine.text import Text, Who, tr, tr_plural
from render.style import MINUS
from storage import Storage
from tables.computers import computer_label
from tables.events import SeatResult, ShowdownSettled
from tables.rules.house_review import reason_words, wager_words

ENGLISH = i18n.ENGLISH.discord


async def showdown_names(
    client: discord.Client,
    storage: Storage,
    guild_id: int,
    event: ShowdownSettled,
    *,
    locale: str = ENGLISH,
) -> dict[int, str]:
    """Every seat's name for the picture: a person's kept name, a computer's number and level
    in the language of ``locale`` (the picture's)."""
    people = [seat.user for seat in event.seats if seat.computer is None]
    names = await player_names(client, storage, guild_id, people)
    computers = {
        seat.user: i18n.localize(locale, computer_label(seat.user, seat.computer))
        for seat in event.seats
        if seat.computer
    }
    return names | computers


def showdown_pings(event: ShowdownSettled) -> discord.AllowedMentions:
    """Whom the showdown post notifies: the game's people (those who surrendered too), never
    anyone else a note might name."""
    people = [discord.Object(seat.user) for seat in event.seats if seat.user > 0]
    return discord.AllowedMentions(users=people, roles=False, everyone=False, replied_user=False)


#: The kinds of chip movement a player's breakdown names (tables/settle.py's ``kind_of``); a
#: house game's wager is named by the game.
KINDS: dict[str, Text] = {
    "ante": tr("ante"),
    "fold": tr("fold"),
    "stakes": tr("stakes"),
    "surrender": tr("surrender"),
    "points": tr("points"),
    "buy-in": tr("buy-in"),
    "bonus": tr("bonus"),
    "pot": tr("pot"),
    "table stakes": tr("table stakes"),
    "daily cap": tr("daily cap"),
}


def people(users: Iterable[int], locale: str = ENGLISH) -> str:
    """Players as message text, by commas ("nobody" for none, in the reader's language)."""
    found = list(users)
    return mentions(found, locale) if found else i18n.localize(locale, tr("nobody"))


def signed_number(value: int, locale: str = ENGLISH) -> str:
    """A number of chips or points with its sign ("+35", a true minus before a loss), written
    as the language writes numbers."""
    text = i18n.format_number(locale, abs(value))
    if not value:
        return text
    return f"+{text}" if value > 0 else f"{MINUS}{text}"


def breakdown_text(seat: SeatResult, locale: str = ENGLISH) -> str:
    """How a player's chips came about, kind by kind: what reconciles them with the points
    ("<@1> -35 chips: points -25 (-5 points), buy-in -5, ante -5")."""
    return f"{mention(seat.user, locale)} {breakdown_line(seat, locale=locale)}"


def breakdown_line(seat: SeatResult, *, locale: str = ENGLISH) -> str:
    """A player's chips and how they came about, the same wherever a game's result is shown
    (the showdown, Review, ``/history``): "-35 chips: points -25 (-5 points), ante -10", or
    each wager's chips in the games against the house."""

    def local(value: object) -> str:
        return i18n.localize(locale, value, Mentions(locale))

    parts = [
        f"{local(wager_words(wager.name))} {signed_number(wager.chips, locale)}"
        for wager in seat.wagers
    ]
    for part in () if seat.wagers else seat.breakdown:
        scored = ""
        if part.kind == "points" and seat.points is not None:
            points = tr_plural(
                "{points} point",
                "{points} points",
                abs(seat.points),
                points=signed_number(seat.points, locale),
            )
            scored = f" ({local(points)})"
        kind = local(KINDS.get(part.kind, part.kind))
        parts.append(f"{kind} {signed_number(part.chips, locale)}{scored}")
    net = local(chips_text(seat.net, locale))
    if not parts:
        return net
    return local(tr("{net}: {parts}", net=net, parts=", ".join(parts)))


def chips_text(net: int, locale: str = ENGLISH) -> Text:
    """A player's net in chips, with its sign ("+35 chips")."""
    return tr_plural("{chips} chip", "{chips} chips", abs(net), chips=signed_number(net, locale))


def showdown_text(
    event: ShowdownSettled, *, heading: str | Text | None = None, locale: str = ENGLISH
) -> str:
    """The nets, each house wager, the table's notes and who the table set hands for, in the
    language of ``locale`` (the channel's)."""

    def local(value: object) -> str:
        return i18n.localize(locale, value, Mentions(locale))

    title = local(
        tr(
            "**{heading}, game {game}.**",
            heading=heading or tr("Showdown"),
            game=str(event.game_id),
        )
    )
    if event.practice:
        title = f"{title} {local(tr('Practice: no chips moved.'))}"
    nets = ", ".join(
        f"{mention(user, locale)} {local(chips_text(net, locale))}"
        for user, net in event.nets.items()
    )
    text = f"{title} {nets}"
    parts = [
        breakdown_text(seat, locale) for seat in event.seats if seat.breakdown and not seat.wagers
    ]
    wagers = [
        local(
            tr(
                "{player}: {wagers}",
                player=Who(seat.user),
                wagers=", ".join(
                    f"{local(wager_words(w.name))} {signed_number(w.chips, locale)}"
                    f" ({local(reason_words(w.reason))})"
                    for w in seat.wagers
                ),
            )
        )
        for seat in event.seats
        if seat.wagers
    ]
    notes = [note.render(lambda user: mention(user, locale), locale) for note in event.notes]
    lines = [text, *parts, *wagers, *notes]
    by_table = [seat.user for seat in event.seats if seat.set_by == "solver"]
    if by_table:
        lines.append(
            local(
                tr(
                    "Hands set by the table at the deadline: {players}.",
                    players=people(by_table, locale),
                )
            )
        )
    return "\n".join(lines)
