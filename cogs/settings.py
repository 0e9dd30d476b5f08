"""``/settings``: a server's chips, lobby expiry, table defaults, the house's chips, whether
achievements are announced and the language of its channel posts (Manage Server only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.common import answer, localized, run, services, words
from cogs.language import server_locale, user_locale
from cogs.pictures import game_title
from engine.text import Term, Text, Where, tr, tr_plural
from render.style import signed
from storage.prizes import MAX_PRIZE, Prize
from storage.rows import GuildSettings, HouseNet, ProcessRow
from tables.cluster import ALIVE_S
from tables.defaults import TableDefaults
from tables.games import ENTRIES, GAME_OPTIONS, GAMES, option_help
from tables.options import ARRANGEMENT_SECONDS, DECLARATION_SECONDS, Option, own_options

GAME_CHOICES = [
    app_commands.Choice(name=spec.title, value=name)
    for name, spec in GAMES.items()
    if spec.default_ante
]
SILENT_CHOICES = [
    app_commands.Choice(name="plays on", value="play"),
    app_commands.Choice(name="surrenders", value="surrender"),
]
WHEEL, DECKS = GAME_OPTIONS["wheel"], GAME_OPTIONS["decks"]
WHEEL_CHOICES = [
    app_commands.Choice(name=wheel.capitalize(), value=wheel) for wheel in WHEEL.choices
]

#: The value of `/settings language`'s choice that goes back to the server's preferred locale.
SERVER_DEFAULT = "default"
LANGUAGE_CHOICES = [
    *(
        app_commands.Choice(name=language.name, value=language.discord)
        for language in (i18n.ENGLISH, *i18n.LANGUAGES)
    ),
    app_commands.Choice(name="Server default", value=SERVER_DEFAULT),
]
CHOSEN = i18n.message("Posts in this server's channels will be in {language}.")
RESET = i18n.message(
    "Posts in this server's channels will follow the server's own language, {language}."
)
SHOWN_CHOSEN = i18n.message("Posts in this server's channels are in {language}, as chosen here.")
SHOWN_OWN = i18n.message(
    "Posts in this server's channels are in {language}, the server's own language."
)

#: The most tables of a server `/settings status` names.
LISTED_TABLES = 20


def status_text(
    tables: Sequence[tuple[int, int]], deadlines: int, locale: str = i18n.ENGLISH.discord
) -> str:
    """One server's part of the bot: its open tables and the deadlines they wait on."""
    channels = ", ".join(f"<#{channel}>" for _, channel in tables[:LISTED_TABLES])
    if len(tables) > LISTED_TABLES:
        channels = localized(
            locale,
            tr("{channels} and {count} more", channels=channels, count=len(tables) - LISTED_TABLES),
        )
    count = tr_plural(
        "This server has **{count}** open table",
        "This server has **{count}** open tables",
        len(tables),
    )
    waiting = tr_plural(
        "**{count}** deadline waits here.", "**{count}** deadlines wait here.", deadlines
    )
    if tables:
        text = tr(
            "{tables}: {channels}; {deadlines}", tables=count, channels=channels, deadlines=waiting
        )
    else:
        text = tr("{tables}; {deadlines}", tables=count, deadlines=waiting)
    return localized(locale, text)


def bot_status_text(
    store: str,
    processes: Sequence[ProcessRow],
    tables: int,
    deadlines: int,
    locale: str = i18n.ENGLISH.discord,
) -> str:
    """The whole bot, for its owner: its store, its live processes, every server's tables."""
    kind = (
        tr("PostgreSQL, shared by every process")
        if store == "postgresql"
        else tr("SQLite, one process")
    )
    lines = [
        localized(
            locale,
            tr_plural(
                "**The bot** runs on {store}; **{count}** process alive:",
                "**The bot** runs on {store}; **{count}** processes alive:",
                len(processes),
                store=kind,
            ),
        )
    ]
    for process in processes[:20]:
        shards = ",".join(map(str, process.shards)) or localized(locale, tr("all"))
        line = tr(
            "- `{host}` pid {pid}, shards {shards}, up since {started}, last seen {seen}",
            host=process.host,
            pid=str(process.pid),
            shards=shards,
            started=discord.utils.format_dt(process.started, "R"),
            seen=discord.utils.format_dt(process.seen, "R"),
        )
        lines.append(localized(locale, line))
    total = tr(
        "{tables} and {deadlines} across the bot.",
        tables=tr_plural("**{count}** open table", "**{count}** open tables", tables),
        deadlines=tr_plural("**{count}** deadline", "**{count}** deadlines", deadlines),
    )
    lines.append(localized(locale, total))
    return "\n".join(lines)


def house_text(cap: int, days: Sequence[HouseNet], locale: str = i18n.ENGLISH.discord) -> str:
    """The house's net chips per UTC day (today first) and the daily cap on its computers."""

    def line(label: Text, nets: Sequence[HouseNet]) -> str:
        net, computers = sum(d.net for d in nets), sum(d.computers for d in nets)
        text = tr(
            "- {days}: **{net}** ({computers} at tables with computers)",
            days=label,
            net=signed(net, locale=locale),
            computers=signed(computers, locale=locale),
        )
        return localized(locale, text)

    return "\n".join(
        [
            localized(
                locale, tr("**The house's chips** (up: the house won them; the days are UTC):")
            ),
            line(tr("today"), days[:1]),
            line(tr("yesterday"), days[1:2]),
            line(tr("the last {count} days", count=len(days)), days),
            localized(
                locale,
                tr(
                    "The house's computers pay a player at most **{cap}** chips a day, net "
                    "(`/{settings} {house} {opt_cap}:` to change it); past that, the house "
                    "keeps the rest.",
                    settings=Term("settings"),
                    house=Term("house"),
                    opt_cap=Term("cap", "option"),
                    cap=cap,
                ),
            ),
        ]
    )


#: The games' labels where a line names several games at once (their titles otherwise).
GAME_LABELS: dict[str, Text] = {
    "Three-card game": tr("Three-card game"),
    "Pai Gow": tr("Pai Gow"),
}


def option_words(option: Option, value: Any) -> Text | str:
    """How ``/settings`` shows a server's default of one of the games' own options (the
    option's own words: tables/rules/)."""
    return option.shown(value)


def option_lines(defaults: TableDefaults, locale: str = i18n.ENGLISH.discord) -> list[str]:
    """A line for each game with options of its own (games that share them share one line),
    with the server's defaults: "- Pai Gow: the **Nevada** wheel.", in the language of
    ``locale``."""
    games: dict[tuple[Option, ...], list[Text | str]] = {}
    for entry in ENTRIES:
        if own := own_options(entry.options):
            label = GAME_LABELS.get(entry.label, entry.label) or game_title(entry.spec, locale)
            games.setdefault(own, []).append(label)
    return [
        localized(
            locale,
            tr(
                "- {games}: {options}.",
                games=tuple(labels),
                options="; ".join(
                    localized(locale, option_words(option, defaults.option(option.name)))
                    for option in own
                ),
            ),
        )
        for own, labels in games.items()
    ]


def prize_text(prize: Prize | None) -> Text:
    """The server's prize for the daily challenge's best, as the settings say it."""
    if prize is None:
        return tr("The daily challenge has no prize here (`prize:` sets one).")
    return tr(
        "The day's best score against par here wins **{chips}** chips in each game's challenge "
        "(a tie splits it), paid just after midnight UTC for each day from {since} on.",
        chips=prize.chips,
        since=prize.since,
    )


def season_length(days: int) -> Text:
    """A rating season's length as the settings say it."""
    if days == 0:
        return tr("**a calendar month**")
    return tr_plural("**{count}** day", "**{count}** days", days)


def language_line(settings: GuildSettings, server: str) -> Text:
    """The language of the server's channel posts, as `/settings show` says it."""
    shown = i18n.language_of(i18n.channel_locale(settings.language, server)).name
    if settings.language is None:
        return tr(
            "- Channel posts: **{language}**, the server's own language (`/{settings} "
            "{set_language}`).",
            settings=Term("settings"),
            set_language=Term("language"),
            language=shown,
        )
    return tr(
        "- Channel posts: **{language}**, chosen with `/{settings} {set_language}`.",
        language=shown,
        settings=Term("settings"),
        set_language=Term("language"),
    )


def describe(
    settings: GuildSettings,
    defaults: TableDefaults,
    server: str = "en-US",
    *,
    locale: str = i18n.ENGLISH.discord,
) -> str:
    """The server's settings as a few lines in the language of ``locale``; ``server``: the
    server's preferred locale."""
    antes = ", ".join(
        localized(
            locale,
            tr("{game} {ante}", game=game_title(spec, locale), ante=defaults.antes[name])
            if name in defaults.antes
            else tr(
                "{game} {ante} (the game's own)",
                game=game_title(spec, locale),
                ante=spec.default_ante,
            ),
        )
        for name, spec in GAMES.items()
        if spec.default_ante
    )
    silent = tr("plays on") if defaults.afk_plays_on else tr("surrenders")
    computers = (
        tr("up to **{seats}** a table", seats=defaults.computer_seats)
        if defaults.computers_allowed and defaults.computer_seats
        else tr("**not allowed**")
    )
    lines: list[Text | str] = [
        tr(
            "**This server's settings** (`/{settings}` to change them; `/{table} {create}` may "
            "choose the table options again for one table):",
            settings=Term("settings"),
            table=Term("table"),
            create=Term("create"),
        ),
        tr(
            "- New players start with **{starting}** chips; the daily bonus is **{daily}**.",
            starting=settings.starting_chips,
            daily=settings.daily_bonus,
        ),
        tr("- An idle lobby closes after **{minutes}** minutes.", minutes=settings.lobby_minutes),
        tr(
            "- A rating season lasts {length} (a new length ends the season under way sooner or "
            "later).",
            length=season_length(settings.season_days),
        ),
        tr("- Antes: {antes}.", antes=antes),
        tr(
            "- Deadlines: **{declare}** s to declare, **{arrange}** s to set hands.",
            declare=defaults.declaration_seconds,
            arrange=defaults.arrangement_seconds,
        ),
        tr("- A player silent at a declaration deadline **{silent}**.", silent=silent),
        *option_lines(defaults, locale),
        tr("- Achievements earned are **announced** in the table's channel.")
        if settings.announce_achievements
        else tr(
            "- Achievements earned are **not announced** (still earned, and shown by "
            "`/{profile}`).",
            profile=Term("profile"),
        ),
        language_line(settings, server),
        tr(
            "- Computer players: {computers}; they pay a player at most **{cap}** chips a day "
            "(`/{settings} {house}`).",
            settings=Term("settings"),
            house=Term("house"),
            computers=computers,
            cap=settings.house_cap,
        ),
    ]
    return "\n".join(localized(locale, line) for line in lines)


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class SettingsCog(
    commands.GroupCog,
    group_name="settings",
    group_description="This server's chips and table defaults (Manage Server)",
):
    """A server's settings: shown to, and changed by, members who may manage the server."""

    # Discord hides the group from others (default_permissions); a server may override that,
    # so every command checks again.
    @app_commands.command(name="show", description="Show this server's settings")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """Every setting of the server."""
        await _change(interaction)

    @app_commands.command(name="status", description="This server's tables and deadlines")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """This server's tables and deadlines; to the bot's owner, the whole bot's too."""
        storage = services(interaction).storage
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild = interaction.guild_id
        tables = await storage.snapshots.keys(guild_id=guild)
        locale = interaction.locale.value
        text = status_text(tables, await storage.deadlines.pending(guild_id=guild), locale)
        # Host names, process ids, shards and other servers' counts are the owner's alone: a
        # server's admin is anyone a server made one.
        if await interaction.client.is_owner(interaction.user):
            processes = await storage.processes.alive(within_s=ALIVE_S)
            everywhere = len(await storage.snapshots.keys())
            pending = await storage.deadlines.pending()
            text += "\n" + bot_status_text(
                storage.database.store, processes, everywhere, pending, locale
            )
        await answer(interaction, text)

    @app_commands.command(name="house", description="The house's chips per day, and its daily cap")
    @app_commands.describe(cap="The most a player may win from the house's computers in a day")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def house(
        self,
        interaction: discord.Interaction[Any],
        cap: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        """The house's net today, yesterday and over the week; change the daily cap."""
        await _house(interaction, cap)

    @app_commands.command(name="season", description="How long a rating season lasts")
    @app_commands.describe(days="Days a season lasts, 1-366; 0: a calendar month (the default)")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def season(
        self, interaction: discord.Interaction[Any], days: app_commands.Range[int, 0, 366]
    ) -> None:
        """Change the rating seasons' length."""
        await _change(interaction, season_days=days)

    @app_commands.command(name="chips", description="Starting chips and the daily bonus")
    @app_commands.describe(starting="Chips a new player starts with", daily="The daily bonus")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def chips(
        self,
        interaction: discord.Interaction[Any],
        starting: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        """Change the starting chips or the daily bonus."""
        await _change(interaction, starting_chips=starting, daily_bonus=daily)

    @app_commands.command(name="challenge", description="The daily challenge's channel and prize")
    @app_commands.describe(
        channel="The channel for each day's challenge and yesterday's top three",
        off="Stop announcing the challenge",
        prize=f"Chips the day's best wins in each game, 0 (none, the default) to {MAX_PRIZE:,}",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel | None = None,
        off: bool = False,
        prize: int | None = None,
    ) -> None:
        """Set or clear the channel where the bot announces each day's challenge, and the
        prize for the day's best."""
        guild = interaction.guild_id
        assert guild is not None
        challenges = services(interaction).challenges
        await interaction.response.defer(ephemeral=True, thinking=True)
        lines: list[Text] = []
        # The prize first: a number out of range is refused before anything changes.
        if prize is not None:
            lines.append(prize_text(await challenges.set_prize(guild, prize)))
        if off:
            await challenges.announce_in(guild, None)
            lines.append(tr("The daily challenge is no longer announced here."))
        elif channel is not None:
            await challenges.announce_in(guild, channel.id)
            lines.append(
                tr(
                    "Each day's challenge and yesterday's top three will be announced in "
                    "{channel}.",
                    channel=Where(channel.id),
                )
            )
        if not lines:
            current = await services(interaction).storage.challenges.channel(guild)
            if current is None:
                lines.append(
                    tr("The daily challenge is not announced; name a channel to announce it there.")
                )
            else:
                lines.append(
                    tr(
                        "The daily challenge is announced in {channel}; name a channel to "
                        "announce it there.",
                        channel=Where(current),
                    )
                )
            lines.append(prize_text(await challenges.prize(guild)))
        await answer(interaction, "\n".join(words(interaction, line) for line in lines))

    @app_commands.command(name="lobby", description="How long an idle lobby stays open")
    @app_commands.describe(minutes="Minutes without a game, a join or a leave (1-10080)")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def lobby(
        self, interaction: discord.Interaction[Any], minutes: app_commands.Range[int, 1, 10_080]
    ) -> None:
        """Change the lobby expiry."""
        await _change(interaction, lobby_minutes=minutes)

    @app_commands.command(name="achievements", description="Announce achievements, or not")
    @app_commands.describe(announce="Announce each achievement earned in the table's channel")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def achievements(self, interaction: discord.Interaction[Any], announce: bool) -> None:
        """Announce the achievements earned, or keep them quiet."""
        await _change(interaction, announce_achievements=announce)

    @app_commands.command(name="language", description="The language of this server's posts")
    @app_commands.describe(language="Leave out to see it; the server default: its own language")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def language(
        self,
        interaction: discord.Interaction[Any],
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show, choose or reset the language of the server's channel posts."""
        guild = interaction.guild_id
        assert guild is not None
        store = services(interaction).storage.settings
        own = server_locale(interaction)

        async def change() -> str:
            if language is None:
                current = (await store.get(guild)).language
            else:
                chosen = None if language.value == SERVER_DEFAULT else language.value
                current = (await store.set_language(guild, chosen)).language
            name = i18n.language_of(i18n.channel_locale(current, own)).name
            if language is None:
                text = SHOWN_OWN if current is None else SHOWN_CHOSEN
            else:
                text = RESET if current is None else CHOSEN
            return i18n.translate(user_locale(interaction), text, language=name)

        await answer(interaction, await run(interaction, change))

    @app_commands.command(name="ante", description="A game's default ante on this server")
    @app_commands.describe(game="Which game", chips="The ante; leave out for the game's own")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def ante(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        chips: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        """Change one game's default ante."""
        await _change(interaction, ante=(game.value, chips))

    @app_commands.command(name="tables", description="Defaults of the table options")
    @app_commands.describe(
        silent="What a player silent at a declaration deadline declares",
        ties_to_dealer=option_help("ties_to_dealer"),
        decks=option_help("decks"),
        wheel=option_help("wheel"),
        computers="Whether tables may seat computer players",
        computer_seats="How many computers a table may seat (0-5)",
        declare_seconds=f"Seconds to declare play or surrender ({DECLARATION_SECONDS.range_words})",
        arrange_seconds=f"Seconds to set hands ({ARRANGEMENT_SECONDS.range_words})",
    )
    @app_commands.choices(silent=SILENT_CHOICES, wheel=WHEEL_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def tables(
        self,
        interaction: discord.Interaction[Any],
        silent: app_commands.Choice[str] | None = None,
        ties_to_dealer: bool | None = None,
        decks: app_commands.Range[int, DECKS.low, DECKS.high] | None = None,
        wheel: app_commands.Choice[str] | None = None,
        computers: bool | None = None,
        computer_seats: app_commands.Range[int, 0, 5] | None = None,
        declare_seconds: app_commands.Range[int, DECLARATION_SECONDS.low, DECLARATION_SECONDS.high]
        | None = None,
        arrange_seconds: app_commands.Range[int, ARRANGEMENT_SECONDS.low, ARRANGEMENT_SECONDS.high]
        | None = None,
    ) -> None:
        """Change the table options' defaults."""
        options: dict[str, Any] = {}
        if silent is not None:
            options["afk_plays_on"] = silent.value == "play"
        if ties_to_dealer is not None:
            options["ties_to_dealer"] = ties_to_dealer
        if decks is not None:
            options["decks"] = decks
        if wheel is not None:
            options["wheel"] = wheel.value
        if computers is not None:
            options["computers_allowed"] = computers
        if computer_seats is not None:
            options["computer_seats"] = computer_seats
        if declare_seconds is not None:
            options["declaration_seconds"] = declare_seconds
        if arrange_seconds is not None:
            options["arrangement_seconds"] = arrange_seconds
        await _change(interaction, options=options)


async def _house(interaction: discord.Interaction[Any], cap: int | None) -> None:
    """Change the daily cap if given, and show the house's chips per day."""
    assert interaction.guild_id is not None
    guild = interaction.guild_id
    found = services(interaction)
    storage = found.storage

    async def show() -> str:
        if cap is None:
            settings = (await found.tables.server(guild)).settings
        else:
            settings = await storage.settings.set(guild, house_cap=cap)
        days = await storage.house.by_day(guild, days=7)
        return house_text(settings.house_cap, days, interaction.locale.value)

    await answer(interaction, await run(interaction, show))


async def _change(
    interaction: discord.Interaction[Any],
    *,
    starting_chips: int | None = None,
    daily_bonus: int | None = None,
    lobby_minutes: int | None = None,
    season_days: int | None = None,
    ante: tuple[str, int | None] | None = None,
    options: dict[str, Any] | None = None,
    announce_achievements: bool | None = None,
) -> None:
    """Apply the changes given (each checked, all or none) and show the settings."""
    assert interaction.guild_id is not None
    guild = interaction.guild_id
    found = services(interaction)
    store = found.storage.settings

    async def change() -> str:
        server = await found.tables.server(guild)
        current, defaults = server.settings, server.defaults
        if options:
            defaults = defaults.changed(**options)
        if ante is not None:
            defaults = defaults.with_ante(*ante)
        asked = (
            starting_chips,
            daily_bonus,
            lobby_minutes,
            season_days,
            ante,
            options,
            announce_achievements,
        )
        if all(value is None for value in asked):
            return describe(
                current, defaults, server_locale(interaction), locale=user_locale(interaction)
            )
        changed = await store.set(
            guild,
            starting_chips=starting_chips,
            daily_bonus=daily_bonus,
            lobby_minutes=lobby_minutes,
            season_days=season_days,
            table_defaults=defaults.to_json(),
            announce_achievements=announce_achievements,
        )
        return describe(
            changed, defaults, server_locale(interaction), locale=user_locale(interaction)
        )

    await answer(interaction, await run(interaction, change))
