"""Pillow pictures of cards, hands, showdowns and leaderboards."""

from render.cards import Face, PlayedJoker, card_back, card_image
from render.hands import hand_png, hands_png
from render.leaderboard import leaderboard_png
from render.order import in_play_order
from render.showdown import ShowdownRow, showdown_png, showdown_size

__all__ = [
    "Face",
    "PlayedJoker",
    "ShowdownRow",
    "card_back",
    "card_image",
    "hand_png",
    "hands_png",
    "in_play_order",
    "leaderboard_png",
    "showdown_png",
    "showdown_size",
]
