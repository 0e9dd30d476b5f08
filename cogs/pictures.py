"""Pictures of a table's events, from plain names: shared by the Discord publisher and the demo.

Nothing here knows Discord: a caller passes the players' names and gets PNG bytes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import AnyCard, sort_cards
from render import ShowdownRow, hand_png, showdown_png
from tables.events import ArrangingOpened, DeclarationsOpened, ShowdownSettled
from tables.games import GAMES


def signed(amount: int) -> str:
    """Chips with their sign: +12, -5, +0."""
    return f"{amount:+d}"


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


def showdown_picture(event: ShowdownSettled, names: Mapping[int, str]) -> bytes:
    """Every seat's hands row by row, the dealer's for house games, the net matrix and chips."""
    spec = GAMES[event.game]
    rows = []
    for seat in event.seats:
        note = ""
        if seat.surrendered_at is not None:
            word = "folded" if spec.has_dealer else "surrendered"
            note = f"{word} at declaration {seat.surrendered_at + 1}"
        if seat.automatic:
            note = (note + "; " if note else "") + f"automatic: {seat.automatic.replace('_', ' ')}"
        if seat.user in event.pot_winners:
            note = (note + "; " if note else "") + "takes the pot"
        # Pyramid games score hand by hand; the house games' wagers are in the notes.
        per_hand = seat.per_hand if len(seat.per_hand) == len(seat.hands) else ()
        rows.append(
            ShowdownRow(
                name=names[seat.user],
                hands=seat.hands,
                labels=seat.labels,
                per_hand=per_hand,
                net=seat.net,
                note=note,
            )
        )
    if event.dealer_hands:
        rows.append(
            ShowdownRow(
                name="Dealer",
                hands=event.dealer_hands,
                labels=event.dealer_labels,
                per_hand=event.dealer_per_hand,
                net=event.house,
                note="the house",
            )
        )
    footer = ["Chips: " + ", ".join(f"{names[u]} {signed(n)}" for u, n in event.nets.items())]
    if event.pot:
        footer.append(f"Pot {event.pot} to " + ", ".join(names[u] for u in event.pot_winners))
    footer.extend(note.render(names.__getitem__) for note in event.notes)
    return showdown_png(
        rows,
        title=f"{spec.title}: game {event.game_id}",
        matrix=event.matrix,
        matrix_names=[names[u] for u in event.matrix_players],
        footer=footer,
    )
