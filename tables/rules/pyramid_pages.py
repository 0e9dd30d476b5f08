"""The Pyramid games' rules cards (RULINGS §1-§4), written from each variant's own numbers: its
players and shoe, deal, declarations, hands and their sizes, points, automatics and payouts. What
differs between the games follows from their data (a dealer, a pot, automatics), so a number
changed in engine/variants.py changes the card too."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from engine.cards import Rank
from engine.evaluate import HIGH_CARD, WheelMode, straight_flush_ladder
from engine.settlement import casino_payout
from engine.stakes import declaration_stakes
from engine.variants import Automatic, OrderRule, Payee, SizeRule, Slot, Variant
from tables.rules import Chart, RulesCard, RulesPage
from tables.rules.pages import (
    CANNOT,
    MINUS,
    ante_words,
    bullets,
    can_make,
    hand_name,
    ladder_names,
    paragraphs,
    players_words,
    shoe_words,
    times,
)
from tables.spec import GameSpec

#: What each automatic is made of (seed 001, "Automatic Win Conditions").
AUTOMATIC_WORDS: Final = {
    Automatic.THREE_FULL_HOUSES: "front, middle and back each a 5-card full house",
    Automatic.DRAGON: "one card of each rank, ace to two (13 cards)",
    Automatic.THREE_STRAIGHTS: "three 5-card straights (a straight flush counts)",
    Automatic.THREE_FLUSHES: "three 5-card flushes (a straight flush counts)",
}
_COUNT_WORDS: Final = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@functools.cache
def pyramid_card(spec: GameSpec) -> RulesCard:
    """A Pyramid game's card: how it goes, its hands, what beats what, its points, then its
    automatics, its payouts against the dealer or its surrender, where it has them."""
    variant = spec.variant
    assert variant is not None
    pages = [
        RulesPage("How a game goes", _going(spec, variant)),
        RulesPage("Setting your hands", _setting(variant, _names(variant))),
        RulesPage("What beats what", _ranking(spec, variant)),
        RulesPage("Scoring", _scoring(variant), (_points_chart(variant),)),
    ]
    if variant.automatics is not None:
        pages.append(RulesPage("Automatics", _automatics(variant)))
    if variant.casino is not None:
        pages.append(RulesPage("Payouts", _payouts(spec, variant)))
    elif variant.declarations:
        pages.append(RulesPage("Surrender", _surrender(spec, variant)))
    return RulesCard(spec.title, tuple(pages))


def _names(variant: Variant) -> tuple[str, ...]:
    """Each slot's name for players, weakest first: "Hand 1", "Front"."""
    names = (slot.name.removesuffix(" hand") for slot in variant.slots)
    return tuple(name[:1].upper() + name[1:] for name in names)


def _largest(variant: Variant) -> int:
    return max(max(slot.allowed_sizes) for slot in variant.slots)


def _going(spec: GameSpec, variant: Variant) -> str:
    against = (
        "each against the bot, which deals and plays the dealer's hand"
        if variant.against_dealer
        else "each against all the others"
    )
    intro = f"{players_words(spec)}, {against}. The shoe: {shoe_words(spec)}."
    steps: list[str] = []
    if variant.against_dealer:
        steps.append(
            f"Everyone puts up the ante ({ante_words(spec)}) and gets {variant.deal} cards."
        )
    elif variant.ante:
        steps.append(
            f"Everyone puts the ante in the pot ({ante_words(spec)}) and gets {variant.deal} cards."
        )
    else:
        steps.append(
            f"Everyone gets {variant.deal} cards. No ante, no pot: chips change hands by points "
            "only."
        )
        if spec.cover_per_opponent:
            steps.append(
                f"While you play, the table holds {spec.cover_per_opponent} of your chips per "
                "opponent as cover; they come back with the result."
            )
    steps.extend(_declaring(variant))
    steps.append(
        f"Set your cards as {_COUNT_WORDS[len(variant.slots)]} hands before the deadline "
        "(Setting your hands)."
    )
    if variant.against_dealer:
        steps.append(
            f"The dealer sets its {variant.max_held} cards with the bot's solver. Your hands meet "
            "the dealer's, hand by hand (Scoring), and points become chips (Payouts)."
        )
    else:
        steps.append(
            "Showdown: your hands meet every other player's, hand by hand, and points change "
            "hands as chips (Scoring)."
        )
    if variant.has_pot:
        steps.append("The highest total of points takes the pot.")
    return paragraphs(intro, bullets(*steps))


def _declaring(variant: Variant) -> list[str]:
    """The steps of the declarations, as the first page tells them."""
    casino = variant.casino
    if casino is not None:
        [declaration] = variant.declarations
        buy_in = "equal to" if casino.buy_in == 1 else f"of {times(casino.buy_in)}"
        return [
            f"Then **fold** (it costs {times(1 + casino.fold_match)} your ante) or **play on**: "
            f"a buy-in {buy_in} your ante brings {declaration.draw} more cards "
            f"({variant.max_held} in all)."
        ]
    steps = []
    many = len(variant.declarations) > 1
    for turn, declaration in enumerate(variant.declarations, start=1):
        stake = ""
        if declaration.play_stake:
            stake = f"put {declaration.play_stake} more chips in the pot and "
        choice = f"**play on** ({stake}get {declaration.draw} more cards) or **surrender**"
        steps.append(f"Declaration {turn}: {choice}." if many else f"Then {choice}.")
    if steps:
        steps.append("Everyone declares at once, in secret; the choices show together (Surrender).")
    return steps


def _setting(variant: Variant, names: Sequence[str]) -> str:
    largest = variant.max_held
    count = _COUNT_WORDS[len(variant.slots)]
    if variant.min_used == largest:
        intro = f"Set all {largest} of your cards as {count} hands, weakest first:"
    else:
        intro = f"Set at least {variant.min_used} of your cards as {count} hands, weakest first:"
    hands = bullets(
        *(
            f"**{name}**: {_sizes(slot, names)}"
            for name, slot in zip(names, variant.slots, strict=True)
        )
    )
    if variant.order is OrderRule.STRICT:
        order = (
            "Each hand must be **stronger** than the one before it. Equal hands are a foul: the "
            "bot refuses them and says why."
        )
    else:
        order = (
            "Each hand must be **at least as strong** as the one before it (equal is fine); the "
            "bot refuses a setting that breaks this and says why."
        )
    rest = [order]
    if variant.min_used < largest:
        rest.append("Cards you do not use are discarded face down.")
    rest.append(
        "Set them from your DM: **Build hands** (menus), **Type hands** (text) or **Suggest** "
        "(the bot's best). You may change them until everyone is in; at the deadline the bot "
        "sets the hands of anyone who has not."
    )
    return paragraphs(intro, hands, bullets(*rest))


def _is_big(rule: SizeRule) -> bool:
    """A 6-10 card hand: n of a kind or an n-card straight flush."""
    return rule.size >= 6 and rule.min_ladder == straight_flush_ladder(rule.size)


def _sizes(slot: Slot, names: Sequence[str]) -> str:
    """The sizes a slot may hold and what each asks: "3 cards; 5 if at least a full house"."""
    plain = [r.size for r in slot.sizes if r.min_ladder == HIGH_CARD and r.needs_slot is None]
    parts = [f"{' or '.join(str(size) for size in plain)} card{'s' * (plain != [1])}"]
    for rule in slot.sizes:
        if rule.size in plain or _is_big(rule):
            continue
        needs = ""
        if rule.needs_slot is not None:
            needs = f" and {names[rule.needs_slot]} holds {rule.needs_size} or more"
        parts.append(f"{rule.size} if {rule.requirement}{needs}")
    big = [rule for rule in slot.sizes if _is_big(rule)]
    if len(big) == 1:
        parts.append(f"{big[0].size} if {big[0].requirement}")
    elif big:
        joined = " or " if len(big) == 2 else " to "
        sizes = f"{big[0].size}{joined}{big[-1].size}"
        parts.append(f"{sizes} if all one rank or a straight flush that long")
    return "; ".join(parts)


def _ranking(spec: GameSpec, variant: Variant) -> str:
    rules = variant.hand_rules
    ladder = ladder_names(_largest(variant), three_card_runs=rules.three_card_runs)
    intro = f"One ladder for hands of every size, lowest first: {', '.join(ladder)}."
    notes = [
        "The same kind of hand: the higher ranks win, the set first, then the kickers. A hand "
        "with an extra kicker beats the same hand without it.",
        "Suits count only when every rank is the same: ♠ above ♥ above ♦ above ♣. The same "
        "ranks and suits tie.",
    ]
    if spec.jokers:
        notes.append(
            "Jokers are fully wild, even as a copy of a card you hold. The bot makes each joker "
            "the best card for its hand and shows what it became, like W→Q♠."
        )
    if rules.wheel is WheelMode.SECOND:
        notes.append(
            "A-2-3-4-5 (the wheel) is the second-best straight: below A-K-Q-J-10, above "
            "K-Q-J-10-9. The same holds for the other runs from the ace."
        )
    if spec.decks > 1:
        notes.append(
            "With several decks a flush may hold a pair, like A♠ A♠ K♠ Q♠ J♠: it is still a flush."
        )
    if _largest(variant) > 5:
        notes.append("A hand of 6 cards or more must be n of a kind or an n-card straight flush.")
    if not rules.three_card_runs:
        notes.append("A 3-card hand is high card, a pair or trips: no three-card straights here.")
    return paragraphs(intro, bullets(*notes))


def _scoring(variant: Variant) -> str:
    win = f"{variant.win_points} point"
    if variant.against_dealer:
        lines = [
            "Your hands meet the dealer's, hand by hand.",
            f"Win a hand: {win}, or more for the special hands in the chart. Lose one: you lose "
            "as much, the dealer's special hands counting against you.",
            "Only the winning hand's points count. A tie (same ranks and suits) scores nothing.",
            "Your net points become chips: see Payouts.",
        ]
        return bullets(*lines)
    lines = [
        "Your hands meet each other player's, hand by hand.",
        f"Win a hand: you score its points, and the loser loses as many. A plain win is {win}; "
        "the chart shows the hands worth more, by where they are played.",
        "The winner scores their own hand's points. A tie (same ranks and suits) scores nothing.",
    ]
    if variant.multiplier > 1:
        lines.append(f"Every point counts {times(variant.multiplier)} in this game.")
    if variant.automatics is not None:
        lines.append("An automatic scores instead of your hands (Automatics).")
    chip = "chip" if variant.chips_per_point == 1 else "chips"
    lines.append(f"Each pair of players settles at once: {variant.chips_per_point} {chip} a point.")
    if variant.has_pot:
        lines.append("Then the highest total takes the pot; players tied for it share it.")
    return bullets(*lines)


def _points_chart(variant: Variant) -> Chart:
    """The points of a win, by hand (rows) and where it is played (columns, strongest first)."""
    names = _names(variant)
    placed = [
        (name, slot)
        for name, slot in reversed(list(zip(names, variant.slots, strict=True)))
        if slot.specials
    ]
    hands = sorted({(s.ladder, s.top_rank) for _, slot in placed for s in slot.specials})
    rows = []
    for ladder, top in hands:
        label = hand_name(ladder).capitalize()
        if top:
            label = f"{Rank(top).word.capitalize()} high"
        cells = []
        for _, slot in placed:
            points = {(s.ladder, s.top_rank): s.points for s in slot.specials}
            if (ladder, top) in points:
                cells.append(str(points[(ladder, top)]))
            elif any(r.min_ladder <= ladder and can_make(r.size, ladder) for r in slot.sizes):
                cells.append(str(variant.win_points))
            else:
                cells.append(CANNOT)
        rows.append((label, *cells))
    columns = [name for name, _ in placed]
    over = ""
    if all(name.startswith("Hand ") for name in columns):
        over, columns = "Hand", [name.removeprefix("Hand ") for name in columns]
    note = f"Any other win: {variant.win_points} point. A dash: not possible there."
    if variant.multiplier > 1:
        note += f" Every point counts {times(variant.multiplier)}."
    return Chart(
        "Points for winning a hand",
        ("Winning hand", *columns),
        tuple(rows),
        over=over,
        note=note,
    )


def _automatics(variant: Variant) -> str:
    automatics = variant.automatics
    assert automatics is not None
    intro = (
        "If your cards make one of these, you may declare it instead of playing your hands. "
        "Jokers are wild in them too. Highest first:"
    )
    listed = "\n".join(
        f"{place}. **{automatic.title.capitalize()}**: {AUTOMATIC_WORDS[automatic]}"
        for place, automatic in enumerate(automatics.precedence, start=1)
    )
    scoring = [
        f"Against a player with no automatic: +{automatics.against_regular} from that player.",
        f"Against a lower automatic: +{automatics.against_lower}.",
        "The same automatic on both sides: compare back, middle and front. Win all three: "
        f"+{automatics.sweep}; win more of them than the other: +{automatics.majority}; "
        "else a push.",
        "Dragon against dragon: the suit of the ace decides (♠ ♥ ♦ ♣), worth "
        f"{automatics.dragon_tiebreak}; a joker ace is a spade; the same suit pushes.",
    ]
    if variant.multiplier > 1:
        scoring.append(f"These points count {times(variant.multiplier)} too.")
    how = (
        "The bot finds every automatic your cards make: **Suggest** plays one where it pays more, "
        "or name it in **Type hands** (its automatic box) or `/arrange hands automatic:`."
    )
    return paragraphs(intro, listed, bullets(*scoring), how)


def _surrender(spec: GameSpec, variant: Variant) -> str:
    variant = spec.variant_at(spec.default_ante)
    intro = (
        "Everyone decides at the same time, in secret, and the choices show together. You may "
        "change yours until then."
    )
    many = len(variant.declarations) > 1
    players = range(max(spec.min_players, 2), spec.max_players + 1)
    steps = []
    totals: list[list[int]] = []
    for turn, declaration in enumerate(variant.declarations):
        stakes = declaration_stakes(variant, turn, players=spec.max_players)
        name = f"**Declaration {turn + 1}**" if many else "**Your choice**"
        play = f"put {stakes.play} more chips in the pot and " if stakes.play else ""
        if declaration.paid_to is Payee.EACH_PLAYER:
            give = f"pay {stakes.each} chips to each player who plays on"
        else:
            give = f"pay {stakes.surrender.paid} more chips into the pot"
        steps.append(
            f"{name}: play on: {play}get {declaration.draw} more cards. Surrender: {give}, "
            "and you are out of the round."
        )
        totals.append(
            [declaration_stakes(variant, turn, players=n).surrender.total for n in players]
        )
    steps += [
        "Chips you have put in the pot stay there.",
        "If only one player is left, they take the pot at once.",
        "If everyone surrenders together, nobody pays anybody and the pot is shared.",
        "Silent at the deadline? You play on, unless the table is set to surrender.",
    ]
    ante = f"with an ante of {variant.ante}"
    if all(len(set(row)) == 1 for row in totals):
        costs = "; ".join(
            f"{row[0]} at declaration {turn}" if many else str(row[0])
            for turn, row in enumerate(totals, start=1)
        )
        summary = f"**A surrender costs {costs} in all** ({ante}), whatever the table's size."
    else:
        lines = [
            f"{n} players: "
            + ", ".join(
                f"{row[index]} at declaration {turn}" if many else str(row[index])
                for turn, row in enumerate(totals, start=1)
            )
            for index, n in enumerate(players)
        ]
        summary = paragraphs(
            f"**A surrender costs in all**, everyone else playing on ({ante}):", bullets(*lines)
        )
    return paragraphs(
        intro, bullets(*steps), summary, "Each declaration's DM gives the figures for your table."
    )


def _antes(count: int) -> str:
    return "one" if count == 1 else str(count)


def _payouts(spec: GameSpec, variant: Variant) -> str:
    casino = variant.casino
    assert casino is not None
    ante = spec.default_ante
    fold = declaration_stakes(variant, 0, players=1, ante=ante).surrender.total
    lines = [
        f"**Fold**: you lose {times(1 + casino.fold_match)} your ante.",
        f"**Above 0**: you win that many antes, {_antes(casino.buy_in)} more for the buy-in, "
        f"and {_antes(casino.bonus)} more at {casino.bonus_points} points or more.",
        "**0**: a push; your ante and buy-in come back.",
        "**Below 0**: you lose that many antes, the buy-in and the ante.",
    ]
    wins = " · ".join(
        f"+{points} wins {casino_payout(variant, points, ante)}" for points in range(1, 7)
    )
    losses = " · ".join(
        f"{MINUS}{points} loses {-casino_payout(variant, -points, ante)}" for points in range(1, 6)
    )
    example = f"**With a {ante}-chip ante**\n{wins}\n{losses}\nA fold loses {fold}."
    return paragraphs(
        "Your net points against the dealer decide, counted in antes:", bullets(*lines), example
    )
