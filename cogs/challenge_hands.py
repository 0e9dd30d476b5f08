"""Setting the hands of a day's challenge: Build hands (the table's builder, at the challenge's
desk) and Type hands with its form, both ending in a preview whose Submit these hands is final.

The controls are the builder's (cogs/builder.py) with their own ids and gate: today's deal of
the id's game, for a player who has not submitted it yet. The deal, scoring and storing are
``tables.challenge``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord

import i18n
from cogs.arrange import add_hands_inputs
from cogs.builder import (
    EMPTY,
    BuilderControls,
    BuildItem,
    BuildSelect,
    ConfirmButton,
    Desk,
    MoveSelect,
    MoveToSelect,
    Place,
    SwapSelect,
    confirm_item,
)
from cogs.common import acknowledge, answer, guarded, localized, picture, png, services, words
from cogs.controls import Button, Control, Interaction
from cogs.pictures import challenge_picture, game_title, setting_picture
from engine.automatics import automatic_name
from engine.cards import AnyCard
from engine.errors import GameError
from engine.text import Term, Text, tr, tr_plural
from render.style import signed
from tables.challenge import ChallengeDay, challenge_game
from tables.games import GameSpec
from tables.hands import (
    read_setting,
    typed_strongest_first,
    unsplit_text,
)
from tables.setting import Setting


def day_number(day: str) -> int:
    """A day (ISO) as a custom id carries it: 2024-05-01 is 20240501."""
    return int(day.replace("-", ""))


def day_text(number: int) -> str:
    """The day (ISO) of ``day_number``."""
    text = f"{number:08d}"
    return f"{text[:4]}-{text[4:6]}-{text[6:]}"


def against_par(score: int) -> Text | str:
    """A score against par in words: "+3 (beat par)", "0 (par)", "-2" (a true minus)."""
    if score > 0:
        return tr("{score} (beat par)", score=signed(score))
    return tr("0 (par)") if score == 0 else signed(score)


# ----- the desk: today's deal, previewed before the one submission -------------------------------

NO_SUGGESTION: Final = tr(
    "The challenge has no suggestion before you submit: par is the solver's own setting."
)


@dataclass(frozen=True, slots=True)
class ChallengeDesk:
    """The day's deal of one game for a player who has not submitted it: the builder's Submit
    previews the hands (nothing is stored), and Submit these hands under the preview is the
    one, final submission."""

    dealt: ChallengeDay

    @property
    def spec(self) -> GameSpec:
        """The deal's game."""
        return self.dealt.spec

    @property
    def held(self) -> tuple[AnyCard, ...]:
        """The player's cards (everyone's, that day)."""
        return self.dealt.held

    @property
    def place(self) -> Place:
        """The deal's game and day, as the challenge's controls name them."""
        return challenge_place(self.dealt.game, self.dealt.day)

    async def suggested(self, interaction: Interaction) -> Setting:
        """None offered: the solver's setting is par."""
        raise GameError(NO_SUGGESTION)

    async def submit(self, interaction: Interaction, setting: Setting) -> None:
        """Preview the hands built."""
        await preview(interaction, self.dealt, setting)

    async def confirm(self, interaction: Interaction, setting: Setting) -> None:
        """Submit the hands previewed, for good."""
        await submit(interaction, self.dealt, setting)


class ChallengeGate:
    """The gate of the challenge's controls: today's deal of the id's game, for a presser who
    has not submitted it (else the sentence saying the day is over, or they played)."""

    where: Mapping[str, Any]

    async def find_desk(self, interaction: Interaction) -> Desk:
        """The presser's desk at the id's deal."""
        return await challenge_desk(interaction, str(self.where["game"]), int(self.where["day"]))


async def challenge_desk(interaction: Interaction, game: str, day: int) -> ChallengeDesk:
    """The desk of a challenge control's game and day (``day_number``) for the presser."""
    challenges = services(interaction).challenges
    return ChallengeDesk(await challenges.verify_open(game, day_text(day), interaction.user.id))


_AT: Final = "pp:challenge:build:{game:[a-z-]+}:{day:int}:{state:[0-9a-z_-]+}"


class ChallengeBuildItem(
    ChallengeGate, BuildItem, custom_id=_AT + ":{action:start|undo|reset|submit}"
):
    """The builder's buttons at a challenge (no start from the suggestion)."""


class ChallengeBuildSelect(ChallengeGate, BuildSelect, custom_id=_AT + ":pick"):
    """The builder's menu of the next hand, at a challenge."""


class ChallengeMoveSelect(ChallengeGate, MoveSelect, custom_id=_AT + ":move"):
    """Move a card (which card), at a challenge."""


class ChallengeMoveToSelect(ChallengeGate, MoveToSelect, custom_id=_AT + ":to:{card:[0-9a-z]}"):
    """Move a card (to which hand), at a challenge."""


class ChallengeSwapSelect(ChallengeGate, SwapSelect, custom_id=_AT + ":swap"):
    """Swap two hands' cards, at a challenge."""


class ChallengeConfirmButton(
    ChallengeGate,
    ConfirmButton,
    custom_id=r"pp:challenge:confirm:{game:[a-z-]+}:{day:int}:{state:[0-9a-z_-]+}:{auto:\d*}",
):
    """Submit these hands: the previewed setting, submitted for good."""

    LABEL = tr("Submit these hands")


#: The challenge's builder.
CHALLENGE_CONTROLS: Final = BuilderControls(
    ChallengeBuildItem,
    ChallengeBuildSelect,
    ChallengeMoveSelect,
    ChallengeMoveToSelect,
    ChallengeSwapSelect,
    ChallengeConfirmButton,
)


def challenge_place(game: str, day: str) -> Place:
    """A day's deal of ``game``, as the challenge's controls name it."""
    return Place(
        {"game": game, "day": day_number(day)},
        CHALLENGE_CONTROLS,
        suggests=False,
        submit_hint=tr(
            "Press **{submit}** to preview them (the submission after that is final).",
            submit=BuildItem.label("submit"),
        ),
    )


# ----- Type hands and its form -------------------------------------------------------------------


class ChallengeTypeButton(Control[Button], custom_id="pp:challenge:type:{game:[a-z-]+}:{day:int}"):
    """Type hands for a day's challenge: opens the form (whoever was sent the cards)."""

    dealt: ChallengeDay

    def __init__(self, *, game: str, day: int, locale: str = i18n.ENGLISH.discord) -> None:
        style = discord.ButtonStyle.primary
        super().__init__(self.button(tr("Type hands"), style, locale=locale, game=game, day=day))
        self.game, self.day = game, day

    async def gate(self, interaction: Interaction) -> None:
        """The challenge's sentence unless the presser may still submit the deal."""
        self.dealt = (await challenge_desk(interaction, self.game, self.day)).dealt

    async def act(self, interaction: Interaction) -> None:
        """Open the form, filled with the player's cards (a form must be the first answer)."""
        dealt = self.dealt
        await interaction.response.send_modal(
            ChallengeModal(
                dealt.game,
                dealt.day,
                draft=unsplit_text(dealt.held),
                locale=interaction.locale.value,
            )
        )


class ChallengeModal(discord.ui.Modal):
    """The form behind Type hands: the hands as text (an automatic where the game has them)."""

    def __init__(
        self, game: str, day: str, *, draft: str, locale: str = i18n.ENGLISH.discord
    ) -> None:
        spec = challenge_game(game)
        super().__init__(
            title=localized(locale, tr("Challenge: {game}", game=game_title(spec, locale)))[:45],
            custom_id=f"pp:challenge-typed:{game}:{day_number(day)}",
        )
        self.game, self.day = game, day
        self.hands, self.automatic = add_hands_inputs(self, spec, draft, locale=locale)

    async def on_submit(self, interaction: Interaction) -> None:
        """Preview the hands typed, or answer why not."""
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: Interaction) -> None:
        await acknowledge(interaction)
        desk = await challenge_desk(interaction, self.game, day_number(self.day))
        text = self.hands.value
        automatic = (self.automatic.value if self.automatic else "") or None
        setting = read_setting(desk.spec, desk.held, text, automatic)
        strongest = typed_strongest_first(desk.spec, text)
        await preview(interaction, desk.dealt, setting, strongest_first=strongest)


# ----- the preview and the one submission --------------------------------------------------------


def preview_sentence(setting: Setting, *, strongest_first: bool = False) -> Text:
    """What a player reads under the picture of their challenge hands before submitting them."""
    hands: Text | str = f"`{setting.text}`"
    if setting.automatic:
        hands = tr(
            "{hands} with the automatic **{automatic}**",
            hands=hands,
            automatic=automatic_name(setting.automatic),
        )
    label = ChallengeConfirmButton.LABEL
    if strongest_first:
        return tr(
            "Preview (read strongest first): {hands}. The challenge takes one submission, final "
            "once made: press **{submit}** to play them, or change them first.",
            hands=hands,
            submit=label,
        )
    return tr(
        "Preview: {hands}. The challenge takes one submission, final once made: press "
        "**{submit}** to play them, or change them first.",
        hands=hands,
        submit=label,
    )


async def preview(
    interaction: Interaction,
    dealt: ChallengeDay,
    setting: Setting,
    *,
    strongest_first: bool = False,
) -> None:
    """Show a legal setting as a picture with Submit these hands and Type hands; nothing is
    stored, and no points are told (they would let a player try settings before submitting)."""
    await acknowledge(interaction)
    dealt.check(setting)
    locale = interaction.locale.value
    title = localized(locale, tr("Your hands (not submitted yet)"))
    data = await picture(setting_picture, dealt.spec, setting.hands, title=title, locale=locale)
    await answer(
        interaction,
        words(interaction, preview_sentence(setting, strongest_first=strongest_first)),
        file=png(data, "preview.png"),
        view=preview_view(dealt.game, dealt.day, dealt.held, setting, locale=locale),
    )


async def submit(interaction: Interaction, dealt: ChallengeDay, setting: Setting) -> None:
    """Submit the player's hands for the day's deal and show them beside par."""
    await acknowledge(interaction)
    found = services(interaction)
    guild, channel = interaction.guild_id, interaction.channel_id
    if guild is None or channel is None:
        raise GameError(tr("Play the challenge in a server's channel: its board is the server's."))
    submitted = await found.challenges.submit(
        game=dealt.game,
        day=dealt.day,
        user=interaction.user.id,
        guild_id=guild,
        channel_id=channel,
        setting=setting,
    )
    event = submitted.event
    data = await picture(
        challenge_picture, dealt, submitted.setting, locale=interaction.locale.value
    )
    scored = tr_plural(
        "Submitted: {hands}. You scored **{points}** points against par's **{par}**: "
        "{against}. Streak: **{count}** day.",
        "Submitted: {hands}. You scored **{points}** points against par's **{par}**: "
        "{against}. Streak: **{count}** days.",
        event.streak,
        hands=f"`{submitted.setting.text}`",
        points=event.points,
        par=event.par,
        against=against_par(event.score),
    )
    board = tr(
        "See the server's board with `/{challenge} {results}`.",
        challenge=Term("challenge"),
        results=Term("results"),
    )
    await answer(
        interaction,
        words(interaction, scored) + "\n" + words(interaction, board),
        file=png(data, "challenge.png"),
        view=discord.ui.View(),
    )


def preview_view(
    game: str,
    day: str,
    held: Sequence[AnyCard],
    setting: Setting,
    *,
    locale: str = i18n.ENGLISH.discord,
) -> discord.ui.View:
    """Submit these hands (and Type hands to change them) under a preview, labelled in the
    language of ``locale`` (the player's)."""
    view = discord.ui.View(timeout=None)
    view.add_item(confirm_item(challenge_place(game, day), held, setting, locale=locale))
    view.add_item(ChallengeTypeButton(game=game, day=day_number(day), locale=locale))
    return view


def play_view(game: str, day: str, *, locale: str = i18n.ENGLISH.discord) -> discord.ui.View:
    """Build hands and Type hands under the day's cards, labelled in the language of
    ``locale`` (the player's)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        ChallengeBuildItem(
            state=EMPTY, action="start", game=game, day=day_number(day), locale=locale
        )
    )
    view.add_item(ChallengeTypeButton(game=game, day=day_number(day), locale=locale))
    return view
