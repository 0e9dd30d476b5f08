"""Pillow pictures of cards, hands, showdowns and leaderboards."""
