"""What a process draws once, drawn ahead: the bot has it drawn while it starts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.cards import JOKER, Card, Rank, Suit
from render.cards import Face, PlayedJoker
from render.hands import hand_png
from render.showdown import ShowdownRow, showdown_png

_CARDS: Final = tuple(Card(rank, suit) for rank in Rank for suit in Suit)


def draw_ahead() -> None:
    """Make the palette and draw every card as a showdown and a dealt hand show it, so that the
    first pictures of the first game cost what the next ones do (about 1.2 s of CPU, once)."""
    faces: list[Face] = [*_CARDS, JOKER, *(PlayedJoker(card) for card in _CARDS)]
    hands = [tuple(faces[start : start + 5]) for start in range(0, len(faces), 5)]
    rows = [
        ShowdownRow(
            "", tuple(hands[start : start + 6]), ("",) * len(hands[start : start + 6]), (), 0
        )
        for start in range(0, len(hands), 6)
    ]
    showdown_png(rows, title="")
    # A dealt hand shows its cards 112 pixels wide: overlapped in the compact design from 17
    # cards (No-Surrender, Showdown), side by side in the full design up to 9 (Casino, Pai Gow).
    dealt: list[Face] = [*_CARDS, JOKER, *_CARDS[:7]]
    for start in range(0, len(dealt), 20):
        hand_png(dealt[start : start + 20])
    for start in range(0, len(_CARDS) + 1, 9):
        hand_png(dealt[start : start + 9])


def draw_hands_ahead(sizes: Iterable[int]) -> None:
    """Draw every card as a dealt hand of each of these sizes shows it: a hand's card width
    follows its size (a 25-card hand's cards are 93 pixels wide, a 20-card hand's 112), and a
    width met for the first time draws each card again (about 70 ms for a hand of 25)."""
    faces: list[Face] = [*_CARDS, JOKER]
    for size in sorted(set(sizes)):
        if size < 1:
            continue
        cycled = faces * (size // len(faces) + 2)
        for start in range(0, len(faces), size):
            hand_png(cycled[start : start + size])
