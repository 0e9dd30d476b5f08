"""Pictures of a table's events, from plain names: shared by the Discord publisher and the demo.

Nothing here knows Discord: a caller passes the players' names and the locale of whoever will see
the picture (a DM's or an ephemeral answer's: the user's; a channel post's: the channel's) and gets
PNG bytes back, its words in that language. The locale is a plain string, so a picture may be drawn
in a worker process.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import i18n
from engine.automatics import automatic_name
from engine.cards import AnyCard, parse_cards, sort_cards
from engine.evaluate import HandRules
from engine.text import Text, tr, tr_plural
from render import ShowdownRow, hand_png, hands_png, in_play_order, showdown_png, showdown_size
from render.showdown import Wager
from render.style import ENGLISH, Words, signed
from render.warm import draw_ahead, draw_hands_ahead
from tables.challenge import ChallengeDay
from tables.events import (
    ArrangingOpened,
    DeclarationsOpened,
    Note,
    SeatResult,
    ShowdownSettled,
)
from tables.events import Wager as TableWager
from tables.games import GAMES, GameSpec, game_named, rules_of
from tables.hand_names import hand_name
from tables.hands import hand_labels
from tables.review import Review
from tables.review import Way as ReviewWay
from tables.rules.house_review import reason_words, wager_title
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


#: A dealt hand's title unless its caller gives one.
YOUR_CARDS: Final = tr("Your cards")


def hand_picture(
    cards: Sequence[AnyCard],
    *,
    title: Words = YOUR_CARDS,
    subtitle: Words = "",
    by: str = "rank",
    locale: str = ENGLISH,
) -> bytes:
    """A player's cards as sent by DM, sorted ``by`` rank or suit, under the game and phase, in
    the player's language."""
    return hand_png(sort_cards(cards, by=by), title=title, subtitle=subtitle, locale=locale)


def game_title(spec: GameSpec, locale: str = ENGLISH) -> str:
    """A game's name as the reader's /commands name it (the game choices' translations)."""
    return i18n.translate(locale, spec.title, context=i18n.CHOICE)


def named_game_title(name: str, locale: str = ENGLISH) -> str:
    """``game_title`` of a game by its one name (stored with a rating or a game), or the name
    itself for a game the bot no longer deals."""
    return game_title(GAMES[name], locale) if name in GAMES else name


def phase_subtitle(
    game: Words, event: DeclarationsOpened | ArrangingOpened, *, locale: str = ENGLISH
) -> str:
    """The line under a hand's picture, in the language of ``locale``: the game (a game's title
    read as the game choices of /commands translate it) and what is asked now."""
    if isinstance(game, str):
        game = i18n.translate(locale, game, context=i18n.CHOICE)
    if isinstance(event, DeclarationsOpened):
        text = tr("{game} · declaration {number}", game=game, number=event.round + 1)
    else:
        text = tr("{game} · set your hands", game=game)
    return i18n.localize(locale, text)


def slot_names(spec: GameSpec) -> tuple[str, ...]:
    """Each hand's place as the pictures name it: Hand 1-6, Front/Middle/Back, or Low/High."""
    return rules_of(spec).slot_names()


#: The slots' names as texts to translate (the tables name them in English).
_SLOTS: Final[dict[str, Text]] = {
    "Hand 1": tr("Hand 1"),
    "Hand 2": tr("Hand 2"),
    "Hand 3": tr("Hand 3"),
    "Hand 4": tr("Hand 4"),
    "Hand 5": tr("Hand 5"),
    "Hand 6": tr("Hand 6"),
    "Front": tr("Front"),
    "Middle": tr("Middle"),
    "Back": tr("Back"),
    "Low": tr("Low"),
    "High": tr("High"),
}


def slot_words(spec: GameSpec) -> tuple[Words, ...]:
    """Each hand's place as a text in no language yet (a slot this module does not know reads
    as the tables name it)."""
    return tuple(_SLOTS.get(name, name) for name in slot_names(spec))


def _automatic(name: str) -> Text:
    """``automatic: dragon``."""
    return tr("automatic: {name}", name=automatic_name(name))


def _joined(notes: Sequence[Words]) -> Words:
    """Notes on a seat one after the other: ``a; b; c``."""
    if not notes:
        return ""
    joined = notes[0]
    for note in notes[1:]:
        joined = tr("{earlier}; {later}", earlier=joined, later=note)
    return joined


def hand_rules(spec: GameSpec) -> HandRules:
    """How the game's hands are read (what a joker becomes)."""
    return rules_of(spec).hand_rules()


def builder_picture(
    spec: GameSpec,
    hands: Sequence[Sequence[AnyCard]],
    labels: Sequence[Words],
    *,
    locale: str = ENGLISH,
) -> bytes:
    """The hands chosen so far in the builder, each in its slot with its name (or why it is no
    hand of its size), as it plays where it is a hand."""
    rules = hand_rules(spec)
    complete = len(hands) == len(slot_names(spec))
    return hands_png(
        [
            hand if str(label).startswith("⚠") else in_play_order(hand, rules)
            for hand, label in zip(hands, labels, strict=True)
        ],
        labels,
        slots=slot_words(spec)[: len(hands)],
        title=tr("Your hands so far") if not complete else tr("Your hands (not set yet)"),
        locale=locale,
    )


def setting_picture(
    spec: GameSpec, hands: Sequence[Sequence[AnyCard]], *, title: Words, locale: str = ENGLISH
) -> bytes:
    """A setting before it is final (Suggest, typed hands): each hand as it plays, its slot and
    its name."""
    rules = hand_rules(spec)
    return hands_png(
        [in_play_order(hand, rules) for hand in hands],
        hand_labels(spec, hands),
        slots=slot_words(spec),
        title=title,
        locale=locale,
    )


def _seat_note(spec: GameSpec, seat: SeatResult, event: ShowdownSettled) -> Words:
    notes: list[Words] = []
    if seat.surrendered_at is not None:
        number = seat.surrendered_at + 1
        if spec.has_dealer:
            notes.append(tr("folded at declaration {number}", number=number))
        else:
            notes.append(tr("surrendered at declaration {number}", number=number))
    if seat.automatic:
        notes.append(_automatic(seat.automatic))
    if seat.user in event.pot_winners:
        notes.append(tr("takes the pot"))
    return _joined(notes)


def _wagers(seat: SeatResult, locale: str) -> tuple[Wager, ...]:
    """A house game's wagers as the picture draws them: name, chips and why."""
    return _wagers_of(seat.wagers, locale)


#: A showdown whose full picture would be taller than this is posted as its summary (each seat
#: on a line, the Scoring Card a button away): six Showdown seats run to about 2,800 pixels.
TALLEST: Final = 1400


def channel_showdown(
    event: ShowdownSettled, names: Mapping[int, str], *, locale: str = ENGLISH
) -> tuple[bytes, bool]:
    """The showdown's picture for its channel, in the channel's language, and whether it is the
    summary (when the full picture would be taller than ``TALLEST``)."""
    rows, title, matrix_names, footer = _showdown_parts(event, names, locale)
    _, height = showdown_size(
        rows, title=title, matrix_names=matrix_names, footer=footer, locale=locale
    )
    summary = height > TALLEST
    return showdown_picture(event, names, summary=summary, locale=locale), summary


def showdown_picture(
    event: ShowdownSettled,
    names: Mapping[int, str],
    *,
    summary: bool = False,
    locale: str = ENGLISH,
) -> bytes:
    """Every seat's hands as they play with their slots, the dealer's for house games, each
    wager's result, the net matrix and the chips; the ``summary``: each seat's hands on one line
    in small cards, without the net matrix."""
    rows, title, matrix_names, footer = _showdown_parts(event, names, locale)
    return showdown_png(
        rows,
        title=title,
        matrix=() if summary else event.matrix,
        matrix_names=() if summary else matrix_names,
        footer=footer,
        summary=summary,
        locale=locale,
    )


def _showdown_parts(
    event: ShowdownSettled, names: Mapping[int, str], locale: str
) -> tuple[list[ShowdownRow], Text, list[str], list[Words]]:
    """The seats, the title, the Scoring Card's names and the footer of a showdown."""
    spec = GAMES[event.game]
    rules = hand_rules(spec)
    slots = slot_words(spec)
    # A game scored hand by hand shows points under each hand; the others, each wager's chips.
    by_hand = rules_of(spec).scores_by_hand()
    rows = []
    for seat in event.seats:
        rows.append(
            ShowdownRow(
                name=names[seat.user],
                hands=tuple(in_play_order(hand, rules) for hand in seat.hands),
                labels=seat.labels,
                per_hand=seat.per_hand if by_hand and seat.hands else (),
                net=seat.net,
                note=_seat_note(spec, seat, event),
                slots=slots if seat.hands else (),
                wagers=() if by_hand else _wagers(seat, locale),
            )
        )
    if event.dealer_hands:
        rows.append(
            ShowdownRow(
                name=tr("Dealer"),
                hands=tuple(in_play_order(hand, rules) for hand in event.dealer_hands),
                labels=event.dealer_labels,
                per_hand=event.dealer_per_hand,
                net=event.house,
                note=tr("the house"),
                slots=slots,
            )
        )
    footer: list[Words] = []
    if event.pot and not event.pot_winners:
        # Its own sentence: "nobody" as an object is a word of its own in some languages.
        footer.append(
            tr_plural("Pot: {count} chip to nobody.", "Pot: {count} chips to nobody.", event.pot)
        )
    elif event.pot:
        footer.append(
            tr_plural(
                "Pot: {count} chip to {winners}.",
                "Pot: {count} chips to {winners}.",
                event.pot,
                winners=", ".join(names[u] for u in event.pot_winners),
            )
        )
    footer.extend(_note(note, names, locale) for note in event.notes)
    title = tr("{game}: game {number}", game=game_title(spec, locale), number=str(event.game_id))
    return rows, title, [names[u] for u in event.matrix_players], footer


def _note(note: Note, names: Mapping[int, str], locale: str) -> Words:
    """A sentence of the showdown, its player (if any) named where the language puts them (an
    older row's plain sentence: named first)."""
    if isinstance(note.text, Text):
        return note.render(names.__getitem__, locale)
    return (
        note.text
        if note.user is None
        else tr("{player} {text}", player=names[note.user], text=note.text)
    )


def review_picture(review: Review, name: str, *, locale: str = ENGLISH) -> bytes:
    """A player's setting beside the best one of the same cards (and the dealer's hands in the
    games against the house), each with what it scored against the hands played, in the
    player's language."""
    spec = game_named(review.game)
    rules = hand_rules(spec)
    slots = slot_words(spec)

    def row(title: Text, way: ReviewWay, note: Words) -> ShowdownRow:
        return ShowdownRow(
            name=title,
            hands=tuple(in_play_order(hand, rules) for hand in way.hands),
            labels=tuple(hand_name(label) for label in way.labels),
            per_hand=way.per_hand,
            net=way.at_table,
            note=note,
            slots=slots if len(way.hands) == len(slots) else (),
            wagers=_wagers_of(way.wagers, locale),
        )

    def worth(way: ReviewWay) -> Words:
        expected = tr("expected {amount} chips", amount=signed(way.expected, 1, locale=locale))
        return _joined([_automatic(way.automatic), expected] if way.automatic else [expected])

    rows = []
    if review.yours is not None:
        rows.append(row(tr("Yours"), review.yours, worth(review.yours)))
    if review.best is not None:
        best = worth(review.best)
        if review.yours is None:
            best = _joined([tr("with the cards held then"), best])
        rows.append(row(tr("Best"), review.best, best))
    if review.dealer is not None:
        rows.append(row(tr("Dealer"), review.dealer, tr("the hands played against you")))
    footer: list[Words] = [tr("Beside each name: chips won against the hands played.")]
    if rules_of(spec).scores_by_hand():
        footer.append(tr("Under each hand: its points against them."))
    title = tr(
        "{game}: game {number}, {player}",
        game=game_title(spec, locale),
        number=str(review.game_id),
        player=name,
    )
    return showdown_png(rows, title=title, footer=footer, locale=locale)


def _wagers_of(wagers: Sequence[TableWager], locale: str) -> tuple[Wager, ...]:
    return tuple(
        Wager(
            _capitalized(i18n.localize(locale, wager_title(w.name))),
            w.chips,
            reason_words(w.reason),
        )
        for w in wagers
    )


def _capitalized(name: str) -> str:
    """A wager's name as a line begins it ("main bet": "Main bet", "mise principale": "Mise
    principale")."""
    return name[:1].upper() + name[1:]


def challenge_picture(dealt: ChallengeDay, setting: Setting, *, locale: str = ENGLISH) -> bytes:
    """A player's setting of the day's challenge beside par's, each hand with its points
    against the other seats' fixed settings, in the player's language."""
    spec = dealt.spec
    rules = hand_rules(spec)
    slots = slot_words(spec)

    def row(name: Text, way: Setting, note: Text) -> ShowdownRow:
        score = dealt.score(way)
        return ShowdownRow(
            name=name,
            hands=tuple(in_play_order(hand, rules) for hand in way.hands),
            labels=hand_labels(spec, way.hands),
            per_hand=score.per_hand,
            net=score.points,
            note=_joined([_automatic(way.automatic), note] if way.automatic else [note]),
            slots=slots if len(way.hands) == len(slots) else (),
        )

    rows = [
        row(tr("Yours"), setting, tr("your hands")),
        row(tr("Par"), dealt.par, tr("the solver's hands")),
    ]
    footer: list[Words] = [
        tr("Beside each name: points against the other seats' hands (not chips)."),
        tr("Under each hand: its points against them."),
    ]
    title = tr("{game} challenge, {day}", game=game_title(spec, locale), day=str(dealt.day))
    return showdown_png(rows, title=title, footer=footer, locale=locale)
