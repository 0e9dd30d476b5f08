"""Chips: ``/balance``, ``/daily``, ``/leaderboard``, ``/history`` and the admins' ``/chips``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.coach import STATUS_NAMES
from cogs.common import (
    MESSAGE_LIMIT,
    answer,
    localized,
    mention,
    picture,
    player_names,
    png,
    reply,
    run,
    services,
    words,
)
from cogs.language import channel_locale
from cogs.pictures import game_title, named_game_title
from cogs.showdown import breakdown_line
from engine.text import Text, Who, tr, tr_plural
from render import leaderboard_png
from render.style import signed
from storage.leaderboards import Period
from storage.rows import LedgerEntry, Season, Standing
from tables.coach import seat_of
from tables.games import GAMES
from tables.ratings import Ratings

BOARDS = [
    app_commands.Choice(name="balance", value="balance"),
    app_commands.Choice(name="net winnings", value="net"),
    app_commands.Choice(name="games won", value="wins"),
    app_commands.Choice(name="rating", value="rating"),
]
PERIODS = [app_commands.Choice(name=p.value, value=p.value) for p in Period]
#: ``/chips ledger``: the rows shown by default and at most (a row is at most about 150
#: characters, so that many fit in one message), and how much of a reason is shown.
LEDGER_ROWS, LEDGER_ROWS_MAX, REASON_CHARS = 10, 12, 60
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
#: A leaderboard's title, by what it ranks.
BOARD_TITLES: dict[str, Text] = {
    "balance": tr("Chips"),
    "net": tr("Net winnings"),
    "wins": tr("Games won"),
}
#: A span of a leaderboard, as its title names it.
PERIOD_NAMES: dict[str, Text] = {
    Period.DAY.value: tr("day"),
    Period.WEEK.value: tr("week"),
    Period.ALL.value: tr("all"),
}


class ChipsCog(commands.Cog):
    """A server's chips and standings."""

    @app_commands.command(name="balance", description="Your chips (or another player's)")
    @app_commands.describe(player="Whose chips to show")
    @app_commands.guild_only()
    async def balance(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        """Show a balance."""
        assert interaction.guild_id is not None
        who = player or interaction.user
        guild = interaction.guild_id

        async def read() -> int:
            players = services(interaction).storage.players
            name = who.display_name if who.id == interaction.user.id else None
            return (await players.get_or_create(guild, who.id, name=name)).balance

        chips = await run(interaction, read)
        text = tr("{player} has **{chips}** chips.", player=Who(who.id), chips=chips)
        await answer(interaction, words(interaction, text))

    @app_commands.command(name="daily", description="Collect today's chip bonus")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Add the daily bonus."""
        assert interaction.guild_id is not None
        guild = interaction.guild_id
        found = services(interaction)
        player = await run(
            interaction, lambda: found.storage.players.claim_daily(guild, interaction.user.id)
        )
        text = tr("Daily bonus collected: you now have **{chips}** chips.", chips=player.balance)
        await answer(interaction, words(interaction, text))

    @app_commands.command(name="leaderboard", description="This server's standings")
    @app_commands.describe(
        by="What to rank by (a rating: the season under way, in one game)",
        period="Over which span",
        game="One game only",
    )
    @app_commands.choices(by=BOARDS, period=PERIODS, game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        by: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """Rank the server's players."""
        assert interaction.guild_id is not None
        guild = interaction.guild_id
        boards = services(interaction).storage.leaderboards
        kind = by.value if by else "balance"
        span = Period(period.value) if period else Period.ALL
        chosen = game.value if game else None
        if kind == "rating" and chosen is None:
            await reply(interaction, tr("Ratings are kept per game: choose one with `game:`."))
            return
        season: list[Season] = []

        async def read() -> list[Standing]:
            if kind == "rating":
                assert chosen is not None
                ratings = Ratings(services(interaction).storage.ratings)
                current, standings = await ratings.standings(guild, chosen)
                season.append(current)
                return [
                    Standing(rank, s.user_id, s.shown)
                    for s in standings
                    if (rank := s.rank) is not None
                ]
            if kind == "balance":
                return await boards.by_balance(guild)
            if kind == "net":
                return await boards.by_net(guild, period=span, game=chosen)
            return await boards.by_wins(guild, period=span, game=chosen)

        standings = await run(interaction, read, ephemeral=False)
        # Posted in the channel: in the channel's language.
        locale = await channel_locale(interaction)
        if not standings:
            nobody = tr("Nobody is on this leaderboard yet: play a game!")
            await answer(interaction, localized(locale, nobody))
            return
        named: Text = BOARD_TITLES.get(kind, tr("Chips"))
        if season and chosen is not None:
            named = tr(
                "Rating, season {season}, {game}",
                season=str(season[0].number),
                game=game_title(GAMES[chosen], locale),
            )
        elif kind != "balance" and chosen:
            named = tr(
                "{board}, {period}, {game}",
                board=named,
                period=PERIOD_NAMES.get(span.value, span.value),
                game=game_title(GAMES[chosen], locale),
            )
        elif kind != "balance":
            named = tr(
                "{board}, {period}", board=named, period=PERIOD_NAMES.get(span.value, span.value)
            )
        title = localized(locale, named)
        storage = services(interaction).storage
        names = await player_names(
            interaction.client, storage, guild, [s.user_id for s in standings]
        )
        lines = [(s.rank, names[s.user_id], s.value) for s in standings]
        data = await picture(leaderboard_png, title, lines, locale=locale)
        text = "\n".join(
            f"{s.rank}. <@{s.user_id}> {i18n.format_number(locale, s.value)}" for s in standings
        )
        await answer(interaction, f"**{title}**\n{text}", file=png(data, "leaderboard.png"))

    @app_commands.command(name="history", description="Your latest games and your record")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        """The caller's games."""
        assert interaction.guild_id is not None
        guild, user = interaction.guild_id, interaction.user.id
        boards = services(interaction).storage.leaderboards

        locale = interaction.locale.value

        async def read() -> str:
            games = await boards.history(guild, user)
            stats = await boards.statistics(guild, user)
            lines = [
                tr(
                    "Played {played}: won {won}, lost {lost}, pushed {pushed}; net {net} chips "
                    "(best {best}, worst {worst}).",
                    played=stats.played,
                    won=stats.won,
                    lost=stats.lost,
                    pushed=stats.pushed,
                    net=signed(stats.net, locale=locale),
                    best=signed(stats.best, locale=locale),
                    worst=signed(stats.worst, locale=locale),
                )
            ]
            for g in games:
                seat = seat_of(g.result, g.game_id, user)
                made = (
                    breakdown_line(seat, locale=locale)
                    if seat is not None
                    else tr("{chips} chips", chips=signed(g.net, locale=locale))
                )
                lines.append(
                    tr(
                        "Game {game} ({title}): {status}, {made}",
                        game=str(g.game_id),
                        title=named_game_title(g.game, locale),
                        status=STATUS_NAMES.get(g.status.value, g.status.value),
                        made=made,
                    )
                )
            return "\n".join(words(interaction, line) for line in lines)

        await answer(interaction, await run(interaction, read))

    chips = app_commands.Group(
        name="chips",
        description="Give or take chips (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @chips.command(name="grant", description="Give a player chips (a logged grant)")
    # Discord hides the group from others (default_permissions); a server may override that,
    # so the bot checks again.
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(player="Who gets the chips", amount="How many", note="Why")
    async def grant(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        amount: app_commands.Range[int, 1, 1_000_000_000],
        note: str = "",
    ) -> None:
        """Grant chips."""
        await _adjust(interaction, player, amount, note, give=True)

    @chips.command(name="take", description="Take chips from a player (never escrowed ones)")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(player="Whose chips", amount="How many", note="Why")
    async def take(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        amount: app_commands.Range[int, 1, 1_000_000_000],
        note: str = "",
    ) -> None:
        """Take chips."""
        await _adjust(interaction, player, amount, note, give=False)

    @chips.command(name="ledger", description="The latest chip movements: who, what and why")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(
        player="Only this player's balance (all of the server's by default)",
        rows="How many rows, newest first (10 by default)",
    )
    async def ledger(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        rows: app_commands.Range[int, 1, LEDGER_ROWS_MAX] = LEDGER_ROWS,
    ) -> None:
        """Show the ledger's latest rows to an admin."""
        assert interaction.guild_id is not None
        guild = interaction.guild_id
        user = None if player is None else player.id
        entries = await run(
            interaction,
            lambda: services(interaction).storage.players.ledger(guild, user, limit=rows),
        )
        await answer(interaction, ledger_text(entries, user, locale=interaction.locale.value))


async def _adjust(
    interaction: discord.Interaction[Any],
    player: discord.User,
    amount: int,
    note: str,
    *,
    give: bool,
) -> None:
    """An admin's grant or take: one ledger row naming the admin, then the new balance."""
    assert interaction.guild_id is not None
    guild, admin = interaction.guild_id, interaction.user.id
    players = services(interaction).storage.players
    change = players.grant if give else players.take
    done = await run(
        interaction, lambda: change(guild, player.id, amount, admin_id=admin, note=note)
    )
    if give:
        text = tr(
            "Granted {amount} chips to {player}: now {balance}.",
            amount=amount,
            player=Who(player.id),
            balance=done.balance,
        )
    else:
        text = tr(
            "Took {amount} chips from {player}: now {balance}.",
            amount=amount,
            player=Who(player.id),
            balance=done.balance,
        )
    await answer(interaction, words(interaction, text))


#: The kinds of a ledger row (``storage.ledger.Kind``'s values) as an admin reads them.
LEDGER_KINDS: dict[str, Text] = {
    "starting": tr("starting"),
    "daily": tr("daily"),
    "grant": tr("grant"),
    "take": tr("take"),
    "escrow": tr("escrow"),
    "release": tr("release"),
    "result": tr("result"),
    "refund": tr("refund"),
}

#: The reasons the ledger keeps without a value, as a reader reads them (they are stored in
#: English: storage/, tables/, engine/settlement.py write them).
LEDGER_REASONS: dict[str, Text] = {
    "starting chips": tr("starting chips"),
    "daily bonus": tr("daily bonus"),
    "ante": tr("ante"),
    "cover": tr("cover"),
    "buy-in": tr("buy-in"),
    "escrow returned": tr("escrow returned"),
    "game cancelled": tr("game cancelled"),
    "game lost in a restart": tr("game lost in a restart"),
    "tournament stack": tr("tournament stack"),
    "tournament over": tr("tournament over"),
}


def _number(found: re.Match[str]) -> int:
    return int(found["chips"])


#: The reasons the ledger keeps with values in them, and how each reads back as a text (with
#: the locale, for a game's title, which its catalog translates in the commands' context).
_REASON_FORMS: list[tuple[re.Pattern[str], Callable[[re.Match[str], str], Text]]] = [
    (
        re.compile(r"stake (?P<n>\d+)"),
        lambda m, _: tr("stake {number}", number=m["n"]),
    ),
    (
        re.compile(r"buy-in (?P<n>\d+)"),
        lambda m, _: tr("buy-in {number}", number=m["n"]),
    ),
    (
        re.compile(r"game (?P<g>\d+): won (?P<chips>\d+)"),
        lambda m, _: tr("game {game}: won {chips}", game=m["g"], chips=_number(m)),
    ),
    (
        re.compile(r"game (?P<g>\d+): lost (?P<chips>\d+)"),
        lambda m, _: tr("game {game}: lost {chips}", game=m["g"], chips=_number(m)),
    ),
    (
        re.compile(r"game (?P<g>\d+): even"),
        lambda m, _: tr("game {game}: even", game=m["g"]),
    ),
    (
        re.compile(r"game (?P<g>\d+): house won (?P<chips>\d+)"),
        lambda m, _: tr("game {game}: the house won {chips}", game=m["g"], chips=_number(m)),
    ),
    (
        re.compile(r"game (?P<g>\d+): house lost (?P<chips>\d+)"),
        lambda m, _: tr("game {game}: the house lost {chips}", game=m["g"], chips=_number(m)),
    ),
    (
        re.compile(r"grant by admin (?P<a>\d+)"),
        lambda m, _: tr("granted by {admin}", admin=Who(int(m["a"]))),
    ),
    (
        re.compile(r"grant by admin (?P<a>\d+): (?P<note>.*)", re.S),
        lambda m, _: tr("granted by {admin}: {note}", admin=Who(int(m["a"])), note=m["note"]),
    ),
    (
        re.compile(r"take by admin (?P<a>\d+)"),
        lambda m, _: tr("taken by {admin}", admin=Who(int(m["a"]))),
    ),
    (
        re.compile(r"take by admin (?P<a>\d+): (?P<note>.*)", re.S),
        lambda m, _: tr("taken by {admin}: {note}", admin=Who(int(m["a"])), note=m["note"]),
    ),
    (
        re.compile(r"daily challenge prize: (?P<title>.+) of (?P<day>\d{4}-\d\d-\d\d)"),
        lambda m, locale: tr(
            "daily challenge prize: {game} of {day}",
            game=_title_in(locale, m["title"]),
            day=m["day"],
        ),
    ),
    (
        re.compile(r"unregistered from tournament (?P<t>\d+)"),
        lambda m, _: tr("unregistered from tournament {number}", number=m["t"]),
    ),
    (
        re.compile(r"tournament (?P<t>\d+) cancelled"),
        lambda m, _: tr("tournament {number} cancelled", number=m["t"]),
    ),
    (
        re.compile(r"its channel #(?P<c>.+) was deleted", re.S),
        lambda m, _: tr("its channel #{channel} was deleted", channel=m["c"]),
    ),
    (
        re.compile(r"the bot can no longer post in #(?P<c>.+)", re.S),
        lambda m, _: tr("the bot can no longer post in #{channel}", channel=m["c"]),
    ),
    (
        re.compile(r"the bot is no longer on \*\*(?P<s>.+)\*\*", re.S),
        lambda m, _: tr("the bot is no longer on **{server}**", server=m["s"]),
    ),
]


def _title_in(locale: str, title: str) -> str:
    """A game's title as stored (its English) in the language of ``locale``."""
    return i18n.translate(locale, title, context=i18n.CHOICE) if title in TITLES else title


#: The games' titles (the English a stored reason names a game by).
TITLES = frozenset(spec.title for spec in GAMES.values())


def ledger_reason(reason: str, locale: str = i18n.ENGLISH.discord) -> str:
    """A ledger row's reason, stored in English, in the language of ``locale``: each form the
    bot writes read back into its text; one it does not know (an older form), as stored. In
    English, as stored."""
    if i18n.language_of(locale) == i18n.ENGLISH:
        return reason
    known: Text | None = LEDGER_REASONS.get(reason)
    if known is None:
        for pattern, text in _REASON_FORMS:
            found = pattern.fullmatch(reason)
            if found is not None:
                known = text(found, locale)
                break
    if known is None:
        # A table's closing reason without a value (a text translated where it is written;
        # a refund keeps its English).
        if not i18n.translations(i18n.language_of(locale)).has(reason):
            return reason
        return i18n.translate(locale, reason)
    return localized(locale, known)


def ledger_line(entry: LedgerEntry, locale: str = i18n.ENGLISH.discord) -> str:
    """One ledger row as an admin reads it: when, whose account, how much, what and why, in the
    language of ``locale``."""
    if entry.user_id is None:
        whose = localized(locale, tr("the house"))
    elif entry.account == "escrow":
        whose = localized(locale, tr("{player}'s escrow", player=Who(entry.user_id)))
    else:
        whose = mention(entry.user_id, locale)
    named = LEDGER_KINDS.get(entry.kind, entry.kind)
    kind = localized(
        locale,
        named
        if entry.game_id is None
        else tr("{kind}, game {game}", kind=named, game=str(entry.game_id)),
    )
    reason = ledger_reason(entry.reason, locale)
    reason = reason if len(reason) <= REASON_CHARS else reason[: REASON_CHARS - 1] + "…"
    return (
        f"`#{entry.id}` <t:{int(entry.created.timestamp())}:f> {whose}"
        f" {signed(entry.amount, locale=locale)}"
        f" ({kind}): {reason}"
    )


def ledger_text(
    entries: list[LedgerEntry], user: int | None, *, locale: str = i18n.ENGLISH.discord
) -> str:
    """The answer to ``/chips ledger``: a heading and a line per row, newest first, in the
    language of ``locale``; the oldest rows left out where a language's rows are too long for
    one message together."""
    if not entries:
        if user is None:
            return localized(locale, tr("No chip has moved on this server yet."))
        text = tr("No chip has moved on {player}'s balance yet.", player=Who(user))
        return localized(locale, text)
    rows = [ledger_line(entry, locale) for entry in entries]
    while True:
        if user is None:
            heading = tr_plural(
                "The ledger of this server: the latest {count} row, newest first.",
                "The ledger of this server: the latest {count} rows, newest first.",
                len(rows),
            )
        else:
            heading = tr_plural(
                "The ledger of {player}'s balance: the latest {count} row, newest first.",
                "The ledger of {player}'s balance: the latest {count} rows, newest first.",
                len(rows),
                player=Who(user),
            )
        shown = "\n".join([localized(locale, heading), *rows])
        if len(shown) <= MESSAGE_LIMIT or len(rows) == 1:
            return shown
        rows.pop()
