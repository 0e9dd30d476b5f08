"""Pictures of a table's events, from plain names: shared by the Discord publisher and the demo.

Nothing here knows Discord: a caller passes the players' names and gets PNG bytes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from engine.cards import AnyCard, parse_cards, sort_cards
from engine.evaluate import HandRules
from render import ShowdownRow, hand_png, hands_png, in_play_order, showdown_png, showdown_size
from render.showdown import Wager
from render.style import signed
from render.warm import draw_ahead, draw_hands_ahead
from tables.challenge import ChallengeDay
from tables.events import ArrangingOpened, DeclarationsOpened, SeatResult, ShowdownSettled
from tables.events import Wager as TableWager
from tables.games import GAMES, GameSpec, game_named, rules_of
from tables.hands import hand_labels
from tables.review import Review
from tables.review import Way as ReviewWay
from tables.setting import Setting


def warm_up_pictures() -> None:
    """Load and draw what the first pictures would wait for: the palette and every card
    (``render.warm.draw_ahead``), every card at each size of hand a game's DMs show (six cold
    hand pictures of a new size, drawn side by side, held a game's DMs for about half a
    second), and the evaluator's tables of every game's hand rules, which lay the hands out as
    they play (the tables never read the three-card game's)."""
    draw_ahead()
    draw_hands_ahead(size for spec in GAMES.values() for size in held_sizes(spec))
    for spec in GAMES.values():
        in_play_order(parse_cards("As Kd 7c"), hand_rules(spec))


def held_sizes(spec: GameSpec) -> tuple[int, ...]:
    """How many cards a player holds in each phase's DM: the deal, then after each draw."""
    sizes = [spec.deal]
    if spec.variant is not None:
        for declaration in spec.variant.declarations:
            sizes.append(sizes[-1] + declaration.draw)
    return tuple(sizes)


def hand_picture(
    cards: Sequence[AnyCard], *, title: str = "Your cards", subtitle: str = "", by: str = "rank"
) -> bytes:
    """A player's cards as sent by DM, sorted ``by`` rank or suit, under the game and phase."""
    return hand_png(sort_cards(cards, by=by), title=title, subtitle=subtitle)


def phase_subtitle(game: str, event: DeclarationsOpened | ArrangingOpened) -> str:
    """The line under a hand's picture: the game and what is asked now."""
    if isinstance(event, DeclarationsOpened):
        return f"{game} · declaration {event.round + 1}"
    return f"{game} · set your hands"


def slot_names(spec: GameSpec) -> tuple[str, ...]:
    """Each hand's place as the pictures name it: Hand 1-6, Front/Middle/Back, or Low/High."""
    return rules_of(spec).slot_names()


def hand_rules(spec: GameSpec) -> HandRules:
    """How the game's hands are read (what a joker becomes)."""
    return rules_of(spec).hand_rules()


def builder_picture(
    spec: GameSpec, hands: Sequence[Sequence[AnyCard]], labels: Sequence[str]
) -> bytes:
    """The hands chosen so far in the builder, each in its slot with its name (or why it is no
    hand of its size), as it plays where it is a hand."""
    rules = hand_rules(spec)
    complete = len(hands) == len(slot_names(spec))
    return hands_png(
        [
            hand if label.startswith("⚠") else in_play_order(hand, rules)
            for hand, label in zip(hands, labels, strict=True)
        ],
        labels,
        slots=slot_names(spec)[: len(hands)],
        title="Your hands so far" if not complete else "Your hands (not set yet)",
    )


def setting_picture(spec: GameSpec, hands: Sequence[Sequence[AnyCard]], *, title: str) -> bytes:
    """A setting before it is final (Suggest, typed hands): each hand as it plays, its slot and
    its name."""
    rules = hand_rules(spec)
    return hands_png(
        [in_play_order(hand, rules) for hand in hands],
        [str(label) for label in hand_labels(spec, hands)],
        slots=slot_names(spec),
        title=title,
    )


def _seat_note(spec: GameSpec, seat: SeatResult, event: ShowdownSettled) -> str:
    words = []
    if seat.surrendered_at is not None:
        word = "folded" if spec.has_dealer else "surrendered"
        words.append(f"{word} at declaration {seat.surrendered_at + 1}")
    if seat.automatic:
        words.append(f"automatic: {seat.automatic.replace('_', ' ')}")
    if seat.user in event.pot_winners:
        words.append("takes the pot")
    return "; ".join(words)


def _wagers(seat: SeatResult) -> tuple[Wager, ...]:
    """A house game's wagers as the picture draws them: name, chips and why."""
    return _wagers_of(seat.wagers)


#: A showdown whose full picture would be taller than this is posted as its summary (each seat
#: on a line, the Scoring Card a button away): six Showdown seats run to about 2,800 pixels.
TALLEST: Final = 1400


def channel_showdown(event: ShowdownSettled, names: Mapping[int, str]) -> tuple[bytes, bool]:
    """The showdown's picture for its channel, and whether it is the summary (when the full
    picture would be taller than ``TALLEST``)."""
    rows, title, matrix_names, footer = _showdown_parts(event, names)
    _, height = showdown_size(rows, title=title, matrix_names=matrix_names, footer=footer)
    summary = height > TALLEST
    return showdown_picture(event, names, summary=summary), summary


def showdown_picture(
    event: ShowdownSettled, names: Mapping[int, str], *, summary: bool = False
) -> bytes:
    """Every seat's hands as they play with their slots, the dealer's for house games, each
    wager's result, the net matrix and the chips; the ``summary``: each seat's hands on one line
    in small cards, without the net matrix."""
    rows, title, matrix_names, footer = _showdown_parts(event, names)
    return showdown_png(
        rows,
        title=title,
        matrix=() if summary else event.matrix,
        matrix_names=() if summary else matrix_names,
        footer=footer,
        summary=summary,
    )


def _showdown_parts(
    event: ShowdownSettled, names: Mapping[int, str]
) -> tuple[list[ShowdownRow], str, list[str], list[str]]:
    """The seats, the title, the Scoring Card's names and the footer of a showdown."""
    spec = GAMES[event.game]
    rules = hand_rules(spec)
    slots = slot_names(spec)
    # A game scored hand by hand shows points under each hand; the others, each wager's chips.
    by_hand = rules_of(spec).scores_by_hand()
    rows = []
    for seat in event.seats:
        rows.append(
            ShowdownRow(
                name=names[seat.user],
                hands=tuple(in_play_order(hand, rules) for hand in seat.hands),
                labels=tuple(str(label) for label in seat.labels),
                per_hand=seat.per_hand if by_hand and seat.hands else (),
                net=seat.net,
                note=_seat_note(spec, seat, event),
                slots=slots if seat.hands else (),
                wagers=() if by_hand else _wagers(seat),
            )
        )
    if event.dealer_hands:
        rows.append(
            ShowdownRow(
                name="Dealer",
                hands=tuple(in_play_order(hand, rules) for hand in event.dealer_hands),
                labels=tuple(str(label) for label in event.dealer_labels),
                per_hand=event.dealer_per_hand,
                net=event.house,
                note="the house",
                slots=slots,
            )
        )
    footer = []
    if event.pot:
        winners = ", ".join(names[u] for u in event.pot_winners) or "nobody"
        footer.append(f"Pot: {event.pot} chips to {winners}.")
    footer.extend(note.render(names.__getitem__) for note in event.notes)
    title = f"{spec.title}: game {event.game_id}"
    return rows, title, [names[u] for u in event.matrix_players], footer


def review_picture(review: Review, name: str) -> bytes:
    """A player's setting beside the best one of the same cards (and the dealer's hands in the
    games against the house), each with what it scored against the hands played."""
    spec = game_named(review.game)
    rules = hand_rules(spec)
    slots = slot_names(spec)

    def row(title: str, way: ReviewWay, note: str) -> ShowdownRow:
        return ShowdownRow(
            name=title,
            hands=tuple(in_play_order(hand, rules) for hand in way.hands),
            labels=way.labels,
            per_hand=way.per_hand,
            net=way.at_table,
            note=note,
            slots=slots if len(way.hands) == len(slots) else (),
            wagers=_wagers_of(way.wagers),
        )

    def worth(way: ReviewWay) -> str:
        automatic = f"automatic: {way.automatic.replace('_', ' ')}; " if way.automatic else ""
        return f"{automatic}expected {signed(way.expected, 1)} chips"

    rows = []
    if review.yours is not None:
        rows.append(row("Yours", review.yours, worth(review.yours)))
    if review.best is not None:
        held_then = "" if review.yours is not None else "with the cards held then; "
        rows.append(row("Best", review.best, held_then + worth(review.best)))
    if review.dealer is not None:
        rows.append(row("Dealer", review.dealer, "the hands played against you"))
    footer = ["Beside each name: chips won against the hands played."]
    if rules_of(spec).scores_by_hand():
        footer.append("Under each hand: its points against them.")
    return showdown_png(rows, title=f"{spec.title}: game {review.game_id}, {name}", footer=footer)


def _wagers_of(wagers: Sequence[TableWager]) -> tuple[Wager, ...]:
    return tuple(Wager(w.name[:1].upper() + w.name[1:], w.chips, str(w.reason)) for w in wagers)


def challenge_picture(dealt: ChallengeDay, setting: Setting) -> bytes:
    """A player's setting of the day's challenge beside par's, each hand with its points
    against the other seats' fixed settings."""
    spec = dealt.spec
    rules = hand_rules(spec)
    slots = slot_names(spec)

    def row(name: str, way: Setting, note: str) -> ShowdownRow:
        score = dealt.score(way)
        automatic = f"automatic: {way.automatic.replace('_', ' ')}; " if way.automatic else ""
        return ShowdownRow(
            name=name,
            hands=tuple(in_play_order(hand, rules) for hand in way.hands),
            labels=rules_of(spec).labels(way.hands),
            per_hand=score.per_hand,
            net=score.points,
            note=automatic + note,
            slots=slots if len(way.hands) == len(slots) else (),
        )

    rows = [row("Yours", setting, "your hands"), row("Par", dealt.par, "the solver's hands")]
    footer = [
        "Beside each name: points against the other seats' hands (not chips).",
        "Under each hand: its points against them.",
    ]
    return showdown_png(rows, title=f"{spec.title} challenge, {dealt.day}", footer=footer)
