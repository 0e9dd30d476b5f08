"""Pillow pictures of cards, hands, showdowns and leaderboards."""

from render.cards import card_back, card_image
from render.hands import hand_png, hands_png
from render.leaderboard import leaderboard_png
from render.showdown import ShowdownRow, showdown_png

__all__ = [
    "ShowdownRow",
    "card_back",
    "card_image",
    "hand_png",
    "hands_png",
    "leaderboard_png",
    "showdown_png",
]
