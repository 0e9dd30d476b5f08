"""The Pyramid games' rules cards (RULINGS §1-§4), written from each variant's own numbers: its
players and shoe, deal, declarations, hands and their sizes, points, automatics and payouts. What
differs between the games follows from their data (a dealer, a pot, automatics), so a number
changed in engine/variants.py changes the card too."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from engine.cards import Rank
from engine.evaluate import FULL_HOUSE, HIGH_CARD, STRAIGHT, WheelMode, straight_flush_ladder
from engine.settlement import casino_payout
from engine.stakes import declaration_stakes
from engine.text import Term, Text, tr
from engine.variants import Automatic, OrderRule, Payee, SizeRule, Slot, Variant
from tables.rules import Chart, RulesCard, RulesPage
from tables.rules.pages import (
    BUILD_HANDS,
    CANNOT,
    HIGH_WORDS,
    MINUS,
    SUGGEST,
    TYPE_HANDS,
    Capital,
    Lines,
    Words,
    ante_words,
    bullets,
    can_make,
    comma_list,
    hand_name,
    ladder_names,
    of_ante,
    paragraphs,
    players_words,
    semicolon_list,
    shoe_words,
    times,
)
from tables.spec import GameSpec

#: Each automatic's name, as a list of them names it.
AUTOMATIC_NAMES: Final = {
    Automatic.THREE_FULL_HOUSES: tr("Three full houses"),
    Automatic.DRAGON: tr("Dragon"),
    Automatic.THREE_STRAIGHTS: tr("Three straights"),
    Automatic.THREE_FLUSHES: tr("Three flushes"),
}
#: What each automatic is made of (seed 001, "Automatic Win Conditions").
AUTOMATIC_WORDS: Final = {
    Automatic.THREE_FULL_HOUSES: tr("front, middle and back each a 5-card full house"),
    Automatic.DRAGON: tr("one card of each rank, ace to two (13 cards)"),
    Automatic.THREE_STRAIGHTS: tr("three 5-card straights (a straight flush counts)"),
    Automatic.THREE_FLUSHES: tr("three 5-card flushes (a straight flush counts)"),
}
#: How many hands a player sets, in words.
_HANDS_WORDS: Final = {
    2: tr("two hands"),
    3: tr("three hands"),
    4: tr("four hands"),
    5: tr("five hands"),
    6: tr("six hands"),
}
#: The slots named by where they stand (the others are "Hand 1" to "Hand 6").
_SLOT_NAMES: Final = {"front": tr("Front"), "middle": tr("Middle"), "back": tr("Back")}
#: What a size asks of a hand (engine/variants.py's ``requirement``), in a player's words.
_REQUIREMENTS: Final = {
    STRAIGHT: tr("a straight or better"),
    FULL_HOUSE: tr("at least a full house"),
}


@functools.cache
def pyramid_card(spec: GameSpec) -> RulesCard:
    """A Pyramid game's card: how it goes, its hands, what beats what, its points, then its
    automatics, its payouts against the dealer or its surrender, where it has them."""
    variant = spec.variant
    assert variant is not None
    pages = [
        RulesPage(tr("How a game goes"), _going(spec, variant)),
        RulesPage(tr("Setting your hands"), _setting(variant, _names(variant))),
        RulesPage(tr("What beats what"), _ranking(spec, variant)),
        RulesPage(tr("Scoring"), _scoring(variant), (_points_chart(variant),)),
    ]
    if variant.automatics is not None:
        pages.append(RulesPage(tr("Automatics"), _automatics(variant)))
    if variant.casino is not None:
        pages.append(RulesPage(tr("Payouts"), _payouts(spec, variant)))
    elif variant.declarations:
        pages.append(RulesPage(tr("Surrender"), _surrender(spec, variant)))
    return RulesCard(spec.title, tuple(pages))


def slot_name(name: str) -> Text:
    """A slot's name for players: "Hand 1", "Front"."""
    short = name.removesuffix(" hand").lower()
    if short.startswith("hand "):
        return tr("Hand {number}", number=short.removeprefix("hand "))
    return _SLOT_NAMES[short]


def _names(variant: Variant) -> tuple[Text, ...]:
    """Each slot's name for players, weakest first: "Hand 1", "Front"."""
    return tuple(slot_name(slot.name) for slot in variant.slots)


def _largest(variant: Variant) -> int:
    return max(max(slot.allowed_sizes) for slot in variant.slots)


def _going(spec: GameSpec, variant: Variant) -> Words:
    if variant.against_dealer:
        intro = tr(
            "{players}, each against the bot, which deals and plays the dealer's hand. "
            "The shoe: {shoe}.",
            players=players_words(spec),
            shoe=shoe_words(spec),
        )
    else:
        intro = tr(
            "{players}, each against all the others. The shoe: {shoe}.",
            players=players_words(spec),
            shoe=shoe_words(spec),
        )
    steps: list[Words] = []
    if variant.against_dealer:
        steps.append(
            tr(
                "Everyone puts up the ante ({ante}) and gets {cards} cards.",
                ante=ante_words(spec),
                cards=variant.deal,
            )
        )
    elif variant.ante:
        steps.append(
            tr(
                "Everyone puts the ante in the pot ({ante}) and gets {cards} cards.",
                ante=ante_words(spec),
                cards=variant.deal,
            )
        )
    else:
        steps.append(
            tr(
                "Everyone gets {cards} cards. No ante, no pot: chips change hands by points only.",
                cards=variant.deal,
            )
        )
        if spec.cover_per_opponent:
            steps.append(
                tr(
                    "While you play, the table holds {chips} of your chips per opponent as "
                    "cover; they come back with the result.",
                    chips=spec.cover_per_opponent,
                )
            )
    steps.extend(_declaring(variant))
    steps.append(
        tr(
            "Set your cards as {hands} before the deadline (Setting your hands).",
            hands=_HANDS_WORDS[len(variant.slots)],
        )
    )
    if variant.against_dealer:
        steps.append(
            tr(
                "The dealer sets its {cards} cards with the bot's solver. Your hands meet the "
                "dealer's, hand by hand (Scoring), and points become chips (Payouts).",
                cards=variant.max_held,
            )
        )
    else:
        steps.append(
            tr(
                "Showdown: your hands meet every other player's, hand by hand, and points "
                "change hands as chips (Scoring)."
            )
        )
    if variant.has_pot:
        steps.append(tr("The highest total of points takes the pot."))
    return paragraphs(intro, bullets(*steps))


def _declaring(variant: Variant) -> list[Words]:
    """The steps of the declarations, as the first page tells them."""
    casino = variant.casino
    if casino is not None:
        [declaration] = variant.declarations
        fold = of_ante(1 + casino.fold_match)
        if casino.buy_in == 1:
            return [
                tr(
                    "Then **fold** (it costs {fold}) or **play on**: a buy-in equal to your "
                    "ante brings {cards} more cards ({held} in all).",
                    fold=fold,
                    cards=declaration.draw,
                    held=variant.max_held,
                )
            ]
        return [
            tr(
                "Then **fold** (it costs {fold}) or **play on**: a buy-in of {buy_in} brings "
                "{cards} more cards ({held} in all).",
                fold=fold,
                buy_in=of_ante(casino.buy_in),
                cards=declaration.draw,
                held=variant.max_held,
            )
        ]
    steps: list[Words] = []
    many = len(variant.declarations) > 1
    for turn, declaration in enumerate(variant.declarations, start=1):
        if declaration.play_stake:
            choice = tr(
                "**play on** (put {chips} more chips in the pot and get {cards} more cards) or "
                "**surrender**",
                chips=declaration.play_stake,
                cards=declaration.draw,
            )
        else:
            choice = tr(
                "**play on** (get {cards} more cards) or **surrender**", cards=declaration.draw
            )
        if many:
            steps.append(tr("Declaration {turn}: {choice}.", turn=turn, choice=choice))
        else:
            steps.append(tr("Then {choice}.", choice=choice))
    if steps:
        steps.append(
            tr("Everyone declares at once, in secret; the choices show together (Surrender).")
        )
    return steps


def _setting(variant: Variant, names: Sequence[Text]) -> Words:
    largest = variant.max_held
    hands_words = _HANDS_WORDS[len(variant.slots)]
    if variant.min_used == largest:
        intro = tr(
            "Set all {cards} of your cards as {hands}, weakest first:",
            cards=largest,
            hands=hands_words,
        )
    else:
        intro = tr(
            "Set at least {cards} of your cards as {hands}, weakest first:",
            cards=variant.min_used,
            hands=hands_words,
        )
    hands = bullets(
        *(
            tr("**{name}**: {sizes}", name=name, sizes=_sizes(slot, names))
            for name, slot in zip(names, variant.slots, strict=True)
        )
    )
    if variant.order is OrderRule.STRICT:
        order = tr(
            "Each hand must be **stronger** than the one before it. Equal hands are a foul: the "
            "bot refuses them and says why."
        )
    else:
        order = tr(
            "Each hand must be **at least as strong** as the one before it (equal is fine); the "
            "bot refuses a setting that breaks this and says why."
        )
    rest: list[Words] = [order]
    if variant.min_used < largest:
        rest.append(tr("Cards you do not use are discarded face down."))
    rest.append(
        tr(
            "Set them from your DM: **{build}** (menus), **{typed}** (text) or "
            "**{suggest}** (the bot's best). You may change them until everyone is in; at the "
            "deadline the bot sets the hands of anyone who has not.",
            build=BUILD_HANDS,
            typed=TYPE_HANDS,
            suggest=SUGGEST,
        )
    )
    return paragraphs(intro, hands, bullets(*rest))


def _is_big(rule: SizeRule) -> bool:
    """A 6-10 card hand: n of a kind or an n-card straight flush."""
    return rule.size >= 6 and rule.min_ladder == straight_flush_ladder(rule.size)


def _requirement(rule: SizeRule) -> Text | str:
    """What a size asks of a hand, in a player's words."""
    if _is_big(rule):
        return tr(
            "{kind} or a {flush}",
            kind=hand_name(straight_flush_ladder(rule.size) + 1),
            flush=hand_name(straight_flush_ladder(rule.size)),
        )
    return _REQUIREMENTS.get(rule.min_ladder, rule.requirement)


def _sizes(slot: Slot, names: Sequence[Text]) -> Text | str:
    """The sizes a slot may hold and what each asks: "3 cards; 5 if at least a full house"."""
    plain = [r.size for r in slot.sizes if r.min_ladder == HIGH_CARD and r.needs_slot is None]
    if len(plain) == 1:
        cards = tr("1 card") if plain == [1] else tr("{size} cards", size=str(plain[0]))
    else:
        cards = tr("{sizes} cards", sizes=_or_list([str(size) for size in plain]))
    parts: list[Text | str] = [cards]
    for rule in slot.sizes:
        if rule.size in plain or _is_big(rule):
            continue
        if rule.needs_slot is not None:
            parts.append(
                tr(
                    "{size} if {requirement} and {slot} holds {needed} or more",
                    size=str(rule.size),
                    requirement=_requirement(rule),
                    slot=names[rule.needs_slot],
                    needed=str(rule.needs_size),
                )
            )
        else:
            parts.append(
                tr(
                    "{size} if {requirement}",
                    size=str(rule.size),
                    requirement=_requirement(rule),
                )
            )
    big = [rule for rule in slot.sizes if _is_big(rule)]
    if len(big) == 1:
        parts.append(
            tr("{size} if {requirement}", size=str(big[0].size), requirement=_requirement(big[0]))
        )
    elif len(big) == 2:
        parts.append(
            tr(
                "{low} or {high} if all one rank or a straight flush that long",
                low=str(big[0].size),
                high=str(big[-1].size),
            )
        )
    elif big:
        parts.append(
            tr(
                "{low} to {high} if all one rank or a straight flush that long",
                low=str(big[0].size),
                high=str(big[-1].size),
            )
        )
    return semicolon_list(parts)


def _or_list(items: Sequence[Text | str]) -> Text | str:
    """ "6 or 7", "3 or 5"."""
    joined: Text | str = items[-1]
    for item in reversed(items[:-1]):
        joined = tr("{first} or {rest}", first=item, rest=joined)
    return joined


def _ranking(spec: GameSpec, variant: Variant) -> Words:
    rules = variant.hand_rules
    ladder = ladder_names(_largest(variant), three_card_runs=rules.three_card_runs)
    intro = tr(
        "One ladder for hands of every size, lowest first: {ladder}.", ladder=comma_list(ladder)
    )
    notes: list[Words] = [
        tr(
            "The same kind of hand: the higher ranks win, the set first, then the kickers. A "
            "hand with an extra kicker beats the same hand without it."
        ),
        tr(
            "Suits count only when every rank is the same: ♠ above ♥ above ♦ above ♣. The same "
            "ranks and suits tie."
        ),
    ]
    if spec.jokers:
        notes.append(
            tr(
                "Jokers are fully wild, even as a copy of a card you hold. The bot makes each "
                "joker the best card for its hand and shows what it became, like W→Q♠."
            )
        )
    if rules.wheel is WheelMode.SECOND:
        notes.append(
            tr(
                "A-2-3-4-5 (the wheel) is the second-best straight: below A-K-Q-J-10, above "
                "K-Q-J-10-9. The same holds for the other runs from the ace."
            )
        )
    if spec.decks > 1:
        notes.append(
            tr(
                "With several decks a flush may hold a pair, like A♠ A♠ K♠ Q♠ J♠: it is still "
                "a flush."
            )
        )
    if _largest(variant) > 5:
        notes.append(
            tr("A hand of 6 cards or more must be n of a kind or an n-card straight flush.")
        )
    if not rules.three_card_runs:
        notes.append(
            tr("A 3-card hand is high card, a pair or trips: no three-card straights here.")
        )
    return paragraphs(intro, bullets(*notes))


def _points(count: int) -> Text:
    """ "1 point"."""
    if count == 1:
        return tr("1 point")
    return tr("{count} points", count=count)


def _scoring(variant: Variant) -> Words:
    win = _points(variant.win_points)
    if variant.against_dealer:
        return bullets(
            tr("Your hands meet the dealer's, hand by hand."),
            tr(
                "Win a hand: {points}, or more for the special hands in the chart. Lose one: "
                "you lose as much, the dealer's special hands counting against you.",
                points=win,
            ),
            tr(
                "Only the winning hand's points count. A tie (same ranks and suits) scores nothing."
            ),
            tr("Your net points become chips: see Payouts."),
        )
    lines: list[Words] = [
        tr("Your hands meet each other player's, hand by hand."),
        tr(
            "Win a hand: you score its points, and the loser loses as many. A plain win is "
            "{points}; the chart shows the hands worth more, by where they are played.",
            points=win,
        ),
        tr(
            "The winner scores their own hand's points. A tie (same ranks and suits) scores "
            "nothing."
        ),
    ]
    if variant.multiplier > 1:
        lines.append(
            tr("Every point counts {times} in this game.", times=times(variant.multiplier))
        )
    if variant.automatics is not None:
        lines.append(tr("An automatic scores instead of your hands (Automatics)."))
    if variant.chips_per_point == 1:
        lines.append(tr("Each pair of players settles at once: 1 chip a point."))
    else:
        lines.append(
            tr(
                "Each pair of players settles at once: {chips} chips a point.",
                chips=variant.chips_per_point,
            )
        )
    if variant.has_pot:
        lines.append(tr("Then the highest total takes the pot; players tied for it share it."))
    return bullets(*lines)


def _points_chart(variant: Variant) -> Chart:
    """The points of a win, by hand (rows) and where it is played (columns, strongest first)."""
    placed = [(slot.name, slot) for slot in reversed(variant.slots) if slot.specials]
    hands = sorted({(s.ladder, s.top_rank) for _, slot in placed for s in slot.specials})
    rows = []
    for ladder, top in hands:
        label: Words = HIGH_WORDS[Rank(top)] if top else Capital(hand_name(ladder))
        cells: list[Words] = []
        for _, slot in placed:
            points = {(s.ladder, s.top_rank): s.points for s in slot.specials}
            if (ladder, top) in points:
                cells.append(str(points[(ladder, top)]))
            elif any(r.min_ladder <= ladder and can_make(r.size, ladder) for r in slot.sizes):
                cells.append(str(variant.win_points))
            else:
                cells.append(CANNOT)
        rows.append((label, *cells))
    numbered = [name.lower().removeprefix("hand ") for name, _ in placed]
    columns: list[Words]
    over: Words = ""
    if all(name.isdigit() for name in numbered):
        over, columns = tr("Hand"), list(numbered)
    else:
        columns = [slot_name(name) for name, _ in placed]
    note: Words = tr(
        "Any other win: {points}. A dash: not possible there.", points=_points(variant.win_points)
    )
    if variant.multiplier > 1:
        note = tr(
            "{sentence} {more}",
            sentence=note,
            more=tr("Every point counts {times}.", times=times(variant.multiplier)),
        )
    return Chart(
        tr("Points for winning a hand"),
        (tr("Winning hand"), *columns),
        tuple(rows),
        over=over,
        note=note,
    )


def _automatics(variant: Variant) -> Words:
    automatics = variant.automatics
    assert automatics is not None
    intro = tr(
        "If your cards make one of these, you may declare it instead of playing your hands. "
        "Jokers are wild in them too. Highest first:"
    )
    listed = Lines(
        tuple(
            tr(
                "{place}. **{name}**: {made_of}",
                place=str(place),
                name=AUTOMATIC_NAMES[automatic],
                made_of=AUTOMATIC_WORDS[automatic],
            )
            for place, automatic in enumerate(automatics.precedence, start=1)
        )
    )
    scoring: list[Words] = [
        tr(
            "Against a player with no automatic: +{points} from that player.",
            points=automatics.against_regular,
        ),
        tr("Against a lower automatic: +{points}.", points=automatics.against_lower),
        tr(
            "The same automatic on both sides: compare back, middle and front. Win all three: "
            "+{sweep}; win more of them than the other: +{majority}; else a push.",
            sweep=automatics.sweep,
            majority=automatics.majority,
        ),
        tr(
            "Dragon against dragon: the suit of the ace decides (♠ ♥ ♦ ♣), worth {points}; a "
            "joker ace is a spade; the same suit pushes.",
            points=automatics.dragon_tiebreak,
        ),
    ]
    if variant.multiplier > 1:
        scoring.append(tr("These points count {times} too.", times=times(variant.multiplier)))
    how = tr(
        "The bot finds every automatic your cards make: **{suggest}** plays one where it pays "
        "more, or name it in **{typed}** (its automatic box) or `/{arrange} {hands} "
        "{opt_automatic}:`.",
        typed=TYPE_HANDS,
        arrange=Term("arrange"),
        hands=Term("hands"),
        opt_automatic=Term("automatic", "option"),
        suggest=SUGGEST,
    )
    return paragraphs(intro, listed, bullets(*scoring), how)


def _surrender(spec: GameSpec, variant: Variant) -> Words:
    variant = spec.variant_at(spec.default_ante)
    intro = tr(
        "Everyone decides at the same time, in secret, and the choices show together. You may "
        "change yours until then."
    )
    many = len(variant.declarations) > 1
    players = range(max(spec.min_players, 2), spec.max_players + 1)
    steps: list[Words] = []
    totals: list[list[int]] = []
    for turn, declaration in enumerate(variant.declarations):
        stakes = declaration_stakes(variant, turn, players=spec.max_players)
        name = tr("**Declaration {turn}**", turn=turn + 1) if many else tr("**Your choice**")
        if stakes.play:
            play = tr(
                "put {chips} more chips in the pot and get {cards} more cards",
                chips=stakes.play,
                cards=declaration.draw,
            )
        else:
            play = tr("get {cards} more cards", cards=declaration.draw)
        if declaration.paid_to is Payee.EACH_PLAYER:
            give = tr("pay {chips} chips to each player who plays on", chips=stakes.each)
        else:
            give = tr("pay {chips} more chips into the pot", chips=stakes.surrender.paid)
        steps.append(
            tr(
                "{name}: play on: {play}. Surrender: {give}, and you are out of the round.",
                name=name,
                play=play,
                give=give,
            )
        )
        totals.append(
            [declaration_stakes(variant, turn, players=n).surrender.total for n in players]
        )
    steps += [
        tr("Chips you have put in the pot stay there."),
        tr("If only one player is left, they take the pot at once."),
        tr("If everyone surrenders together, nobody pays anybody and the pot is shared."),
        tr("Silent at the deadline? You play on, unless the table is set to surrender."),
    ]

    def cost(chips: int, turn: int) -> Text | int:
        if many:
            return tr("{chips} at declaration {turn}", chips=chips, turn=turn)
        return chips

    summary: Words
    if all(len(set(row)) == 1 for row in totals):
        costs = [cost(row[0], turn) for turn, row in enumerate(totals, start=1)]
        summary = tr(
            "**A surrender costs {costs} in all** (with an ante of {ante}), whatever the "
            "table's size.",
            costs=_semicolons(costs),
            ante=variant.ante,
        )
    else:
        lines = [
            tr(
                "{count} players: {costs}",
                count=n,
                costs=comma_list(
                    [_shown(cost(row[index], turn)) for turn, row in enumerate(totals, start=1)]
                ),
            )
            for index, n in enumerate(players)
        ]
        summary = paragraphs(
            tr(
                "**A surrender costs in all**, everyone else playing on (with an ante of {ante}):",
                ante=variant.ante,
            ),
            bullets(*lines),
        )
    return paragraphs(
        intro,
        bullets(*steps),
        summary,
        tr("Each declaration's DM gives the figures for your table."),
    )


def _shown(value: Text | int) -> Text | str:
    """A cost in a list: a text, or a number as a text of its own (so that it is grouped)."""
    return value if isinstance(value, Text) else tr("{chips}", chips=value)


def _semicolons(values: Sequence[Text | int]) -> Text | str:
    return semicolon_list([_shown(value) for value in values])


def _antes(count: int) -> Text:
    return tr("one") if count == 1 else tr("{count}", count=count)


def _payouts(spec: GameSpec, variant: Variant) -> Words:
    casino = variant.casino
    assert casino is not None
    ante = spec.default_ante
    fold = declaration_stakes(variant, 0, players=1, ante=ante).surrender.total
    lines = [
        tr("**Fold**: you lose {fold}.", fold=of_ante(1 + casino.fold_match)),
        tr(
            "**Above 0**: you win that many antes, {buy_in} more for the buy-in, and {bonus} "
            "more at {points} points or more.",
            buy_in=_antes(casino.buy_in),
            bonus=_antes(casino.bonus),
            points=casino.bonus_points,
        ),
        tr("**0**: a push; your ante and buy-in come back."),
        tr("**Below 0**: you lose that many antes, the buy-in and the ante."),
    ]
    wins = Lines(
        tuple(
            tr(
                "+{points} wins {chips}",
                points=str(points),
                chips=casino_payout(variant, points, ante),
            )
            for points in range(1, 7)
        ),
        " · ",
    )
    losses = Lines(
        tuple(
            tr(
                "{points} loses {chips}",
                points=f"{MINUS}{points}",
                chips=-casino_payout(variant, -points, ante),
            )
            for points in range(1, 6)
        ),
        " · ",
    )
    example = Lines(
        (
            tr("**With a {ante}-chip ante**", ante=ante),
            wins,
            losses,
            tr("A fold loses {chips}.", chips=fold),
        )
    )
    return paragraphs(
        tr("Your net points against the dealer decide, counted in antes:"),
        bullets(*lines),
        example,
    )
