"""The daily challenge (duplicate play): the day's deal of each Pyramid game, the other seats'
settings and the solver's par made once, and a player's submission scored and stored with its
``ChallengePlayed`` event queued in the channel's outbox (docs/architecture.md, "The daily
challenge").

The deal is the engine's (``engine.challenge``); the other seats are set by the strong computer
(the Casino dealer by the solver, as at a table, RULINGS §3), and par is the solver's setting of
the player's cards scored against them. Those settings take the solver seconds and, within a
time budget, need not come out the same twice: they are made once per day and game, off the
loop, and kept in the store, so every server and process plays against the same ones.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from engine.arrangement import Arrangement, verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import AnyCard, card_from_code
from engine.challenge import ChallengeScore, deal_challenge, score_against
from engine.errors import GameError, quote
from engine.players import Level, computer_setting
from engine.scoring import PlayedHands
from engine.text import Term, tr
from engine.variants import Automatic, Variant
from storage import Storage
from storage.challenge import ChallengePlay
from storage.prizes import Prize, PrizeDue, Winner
from tables.codec import encode_event
from tables.events import ChallengePlayed
from tables.games import ENTRIES, GameSpec, game_named, rules_of
from tables.outbox import Outbox
from tables.rules import SOLVER_BUDGET_S
from tables.runtime import Offload, Priority
from tables.setting import Setting, hands_of

#: The games with a daily challenge: the Pyramid games, in the registry's order.
CHALLENGE_GAMES: Final = tuple(entry.spec for entry in ENTRIES if entry.spec.variant is not None)


def challenge_game(name: str | None) -> GameSpec:
    """The challenge's game called ``name`` (the first Pyramid game when none is named)."""
    if not name:
        return CHALLENGE_GAMES[0]
    spec = game_named(name)
    if spec not in CHALLENGE_GAMES:
        games = ", ".join(game.name for game in CHALLENGE_GAMES)
        raise GameError(
            tr("The daily challenge deals {games}, not {typed}.", games=games, typed=quote(name))
        )
    return spec


def challenge_day(text: str | None, today: str) -> str:
    """The day a player names (ISO, ``YYYY-MM-DD``), today when none; none after today."""
    if not text:
        return today
    try:
        day = datetime.strptime(text.strip(), "%Y-%m-%d").date().isoformat()
    except ValueError:
        raise GameError(
            tr("A day is written like {today}, not {typed}.", today=today, typed=quote(text))
        ) from None
    if day > today:
        raise GameError(
            tr(
                "The challenge of {day} is not dealt yet: today is {today} (UTC).",
                day=day,
                today=today,
            )
        )
    return day


def _cards(codes: list[int]) -> tuple[AnyCard, ...]:
    return tuple(card_from_code(int(code)) for code in codes)


@dataclass(frozen=True, slots=True)
class ChallengeDay:
    """One day's deal of one game: the player's cards, each other seat's cards and setting (the
    dealer's, against a dealer), and par."""

    day: str
    game: str
    held: tuple[AnyCard, ...]
    others: tuple[tuple[tuple[AnyCard, ...], Setting], ...]
    #: The solver's setting of ``held``, and what it scores against the others.
    par: Setting
    par_points: int

    @property
    def spec(self) -> GameSpec:
        """The game."""
        return game_named(self.game)

    def to_json(self) -> str:
        """As the store keeps it (card codes)."""
        return json.dumps(
            {
                "held": [card.code for card in self.held],
                "others": [
                    {"cards": [c.code for c in cards], "setting": setting.to_json()}
                    for cards, setting in self.others
                ],
                "par": self.par.to_json(),
                "par_points": self.par_points,
            }
        )

    @classmethod
    def from_json(cls, day: str, game: str, text: str) -> ChallengeDay:
        """The day ``to_json`` wrote."""
        data: Mapping[str, Any] = json.loads(text)
        others = tuple(
            (_cards(seat["cards"]), Setting.from_json(seat["setting"])) for seat in data["others"]
        )
        return cls(
            day,
            game,
            _cards(data["held"]),
            others,
            Setting.from_json(data["par"]),
            int(data["par_points"]),
        )

    def check(self, setting: Setting) -> None:
        """``GameError`` saying why a setting of the player's cards is not legal (nothing is
        scored: a preview must not tell the points before the one submission)."""
        rules_of(self.spec).check(self.held, setting)

    def score(self, setting: Setting) -> ChallengeScore:
        """What a setting of the player's cards wins against the other seats (checked first:
        ``GameError`` says why one is not legal)."""
        variant = _variant(self.spec)
        mine = _played(variant, "you", self.held, setting)
        others = [
            _played(variant, str(i), cards, theirs) for i, (cards, theirs) in enumerate(self.others)
        ]
        return score_against(variant, mine, others)


def _variant(spec: GameSpec) -> Variant:
    assert spec.variant is not None, "only the Pyramid games have a challenge"
    return spec.variant


def _played(
    variant: Variant, name: str, held: tuple[AnyCard, ...], setting: Setting
) -> PlayedHands:
    """A setting's hands as scoring sees them, checked by the engine as at a table."""
    arrangement = Arrangement(setting.hands, setting.discards or None)
    if setting.automatic is None:
        return PlayedHands(name, verify_arrangement(variant, held, arrangement))
    automatic = Automatic(setting.automatic)
    return PlayedHands(name, verify_automatic(variant, held, arrangement, automatic), automatic)


def make_challenge_day(game: str, day: str, budget_s: float) -> ChallengeDay:
    """Deal the day's cards, set the other seats and find par (CPU work: in a worker)."""
    spec = game_named(game)
    rules, variant = rules_of(spec), _variant(spec)
    deal = deal_challenge(variant, day, game)
    if variant.against_dealer:
        # RULINGS §3: the dealer sets its cards with the solver.
        others = tuple(
            (cards, rules.suggest(cards, budget_s=budget_s).setting) for cards in deal.others
        )
    else:
        others = tuple((cards, _strong(variant, cards, budget_s)) for cards in deal.others)
    par = rules.suggest(deal.held, budget_s=budget_s).setting
    unscored = ChallengeDay(day, game, deal.held, others, par, 0)
    return ChallengeDay(day, game, deal.held, others, par, unscored.score(par).points)


def _strong(variant: Variant, held: tuple[AnyCard, ...], budget_s: float) -> Setting:
    """The strong computer's setting (engine/players.py), within the challenge's budget."""
    arrangement, automatic = computer_setting(variant, Level.STRONG, held, budget_s=budget_s)
    return Setting(
        hands_of(arrangement.hands),
        tuple(arrangement.discards or ()),
        None if automatic is None else automatic.value,
    )


@dataclass(frozen=True, slots=True)
class Submitted:
    """A scored submission: its event (points, par, streak) and the points of each hand."""

    event: ChallengePlayed
    setting: Setting
    score: ChallengeScore


def ranked(board: Sequence[ChallengePlay]) -> list[tuple[int, ChallengePlay]]:
    """A board (best first) with each player's rank: equal scores share one (1, 1, 3)."""
    ranks: list[tuple[int, ChallengePlay]] = []
    for index, play in enumerate(board):
        same = ranks and ranks[-1][1].score == play.score
        ranks.append((ranks[-1][0] if same else index + 1, play))
    return ranks


#: How many of yesterday's best players an announcement names, per game.
ANNOUNCED_TOP: Final = 3


@dataclass(frozen=True, slots=True)
class Announcement:
    """What a server's challenge channel is told at the start of a day: that the day's deals
    are out, and the top of the server's board of yesterday in each game played."""

    guild_id: int
    channel_id: int
    day: str
    #: (game, its top ``ANNOUNCED_TOP`` places with their ranks), for each game played.
    yesterday: tuple[tuple[GameSpec, tuple[tuple[int, ChallengePlay], ...]], ...]
    #: (game, who won yesterday's prize and their chips), for each game whose prize was paid.
    prizes: tuple[tuple[GameSpec, tuple[Winner, ...]], ...] = ()


def utc_day(seconds: float) -> str:
    """The UTC day of a moment, ISO."""
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


class Challenges:
    """The daily challenge as the bot plays it: days dealt once, submissions stored with their
    events."""

    def __init__(
        self,
        storage: Storage,
        offload: Offload,
        outbox: Outbox,
        *,
        clock: Callable[[], float] = time.time,
        budget_s: float = SOLVER_BUDGET_S,
    ) -> None:
        self.storage = storage
        self.offload = offload
        self.outbox = outbox
        self.clock = clock
        #: The solver's time for each setting of a day (the other seats' and par).
        self.budget_s = budget_s
        self._days: dict[tuple[str, str], ChallengeDay] = {}
        self._making: dict[tuple[str, str], asyncio.Lock] = {}

    def today(self) -> str:
        """Today (UTC), ISO."""
        return utc_day(self.clock())

    async def deal(self, game: str, day: str) -> ChallengeDay:
        """The day's deal of ``game``: from memory, the store, or made now in a worker (once:
        a second caller waits for the first)."""
        key = (day, game)
        if (known := self._days.get(key)) is not None:
            return known
        async with self._making.setdefault(key, asyncio.Lock()):
            if (known := self._days.get(key)) is not None:
                return known
            stored = await self.storage.challenges.deal(day, game)
            if stored is None:
                made = await self.offload(
                    make_challenge_day, game, day, self.budget_s, priority=Priority.SUGGEST
                )
                stored = await self.storage.challenges.keep_deal(day, game, made.to_json())
            found = ChallengeDay.from_json(day, game, stored)
            self._days[key] = found
            self._making.pop(key, None)
            return found

    async def verify_open(self, game: str, day: str, user: int) -> ChallengeDay:
        """The day's deal of ``game`` while the player may still submit it; else ``GameError``:
        the day is over, or they have played it (one submission a day)."""
        if day != self.today():
            raise GameError(
                tr(
                    "The challenge of {day} is over; play today's with `/{challenge} {play}`.",
                    day=day,
                    challenge=Term("challenge"),
                    play=Term("play"),
                )
            )
        if await self.storage.challenges.play(day, game, user) is not None:
            raise GameError(
                tr(
                    "You have already played today's {game} challenge: one submission a day."
                    " See how you did with `/{challenge} {results}`.",
                    game=Term(game_named(game).title, "choice"),
                    challenge=Term("challenge"),
                    results=Term("results"),
                )
            )
        return await self.deal(game, day)

    async def submit(
        self,
        *,
        game: str,
        day: str,
        user: int,
        guild_id: int,
        channel_id: int,
        setting: Setting,
    ) -> Submitted:
        """Score the player's setting of the day's cards and store it, with its event queued
        in the channel's outbox in the same transaction; ``GameError`` for hands that are not
        legal, a second submission, or a day that is over."""
        spec = game_named(game)
        dealt = await self.verify_open(game, day, user)
        dealt.check(setting)
        score = dealt.score(setting)

        def event(streak: int) -> Mapping[str, Any]:
            return encode_event(self._event(dealt, user, score.points, streak))

        key = (guild_id, channel_id)
        # The channel's rows are queued under its table's lock, so they keep commit order.
        async with self.storage.database.lock("table", key):
            streak, _ = await self.storage.challenges.submit(
                day=day,
                game=game,
                title=spec.title,
                user_id=user,
                guild_id=guild_id,
                channel_id=channel_id,
                setting=json.dumps(setting.to_json()),
                points=score.points,
                par=dealt.par_points,
                event=event,
            )
        await self.outbox.after_commit(key)
        return Submitted(self._event(dealt, user, score.points, streak), setting, score)

    @staticmethod
    def _event(dealt: ChallengeDay, user: int, points: int, streak: int) -> ChallengePlayed:
        return ChallengePlayed(dealt.day, dealt.game, user, points, dealt.par_points, streak)

    async def play(self, game: str, day: str, user: int) -> ChallengePlay | None:
        """The player's submission, if any."""
        return await self.storage.challenges.play(day, game, user)

    async def due_announcements(self) -> list[Announcement]:
        """Today's announcement for each server whose challenge channel has not been told of
        today, each claimed in the store first: once per server and day, whichever process
        (or restart) comes first. A claim whose message then fails is not made again."""
        store = self.storage.challenges
        today = self.today()
        yesterday = (date.fromisoformat(today) - timedelta(days=1)).isoformat()
        due = []
        for guild, channel in await store.to_announce(today):
            if not await store.announced(guild, today):
                continue  # another process told this server first
            tops, prizes = [], []
            for spec in CHALLENGE_GAMES:
                top = ranked(await store.board(yesterday, spec.name, guild))[:ANNOUNCED_TOP]
                if top:
                    tops.append((spec, tuple(top)))
                if winners := await self.storage.prizes.winners(guild, yesterday, spec.name):
                    prizes.append((spec, tuple(winners)))
            due.append(Announcement(guild, channel, today, tuple(tops), tuple(prizes)))
        return due

    async def pay_prizes(self) -> list[tuple[PrizeDue, list[Winner]]]:
        """Pay each prize due: for every server with a prize and every game of a day over
        that its players played (since the prize was set), the server's best score against
        par wins it, a tie splitting it (``storage.prizes.split_prize``). Each is paid once,
        whichever process (or restart) comes first; those this call paid."""
        store = self.storage.prizes
        paid = []
        for due in await store.due(self.today()):
            title = game_named(due.game).title
            reason = f"daily challenge prize: {title} of {due.day}"
            winners = await store.pay(due, reason=reason)
            if winners is not None:
                paid.append((due, winners))
        return paid

    async def set_prize(self, guild_id: int, chips: int) -> Prize | None:
        """Set the server's prize for each day's best (0: none), paid from today's challenge
        on; ``GameError`` for a number out of range."""
        return await self.storage.prizes.set(guild_id, chips, self.today())

    async def prize(self, guild_id: int) -> Prize | None:
        """The server's prize, if it set one."""
        return await self.storage.prizes.get(guild_id)

    async def winners(self, guild_id: int, day: str, game: str) -> list[Winner]:
        """Who won the server's prize of a day's game, once it is paid."""
        return await self.storage.prizes.winners(guild_id, day, game)

    async def announce_in(self, guild_id: int, channel_id: int | None) -> None:
        """Announce the server's challenge in this channel from the next day on (today's deals
        are out already), or nowhere (None)."""
        store = self.storage.challenges
        await store.set_channel(guild_id, channel_id)
        if channel_id is not None:
            await store.announced(guild_id, self.today())

    def until_tomorrow(self) -> float:
        """Seconds from now to the next UTC midnight (the next day's deals)."""
        now = self.clock()
        today = datetime.fromtimestamp(now, UTC).date()
        tomorrow = datetime.combine(today + timedelta(days=1), datetime.min.time(), UTC)
        return tomorrow.timestamp() - now
