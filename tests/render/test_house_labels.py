"""Every hand's name of the three-card game and Pai Gow fits its cell of the showdown picture,
whole, in every language: in the full picture and in the summary a table of six is posted as."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import pytest

import i18n
from cogs.pictures import TALLEST, _showdown_parts
from cogs.samples import play_sample
from engine.cards import AnyCard, card_from_code, parse_cards
from engine.paigow import DECK_CODES
from render.showdown import _plan, showdown_size
from render.style import ELLIPSIS, label_lines
from tables.games import game_named, rules_of
from tables.hand_names import hand_name

LOCALES = (i18n.ENGLISH.discord, *(language.discord for language in i18n.LANGUAGES))
RANKS = "23456789TJQKA"
#: Pai Gow's five-card hands drawn at random (with the joker among them), enough to meet every
#: category with long rank words and kickers.
SAMPLED = 3000


@cache
def _names(game: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names a low and a high hand of ``game`` may take, in English as the events keep
    them."""
    rules = rules_of(game_named(game))
    low: set[str] = set()
    high: set[str] = set()
    if game == "three-card":
        for single, a, b in itertools.product(RANKS, RANKS, RANKS):
            cards = parse_cards(f"{single}s {a}h {b}d")
            labels = rules.labels([cards[:1], cards[1:]])
            low.add(labels[0])
            high.add(labels[1])
        return tuple(sorted(low)), tuple(sorted(high))
    for a, b in itertools.combinations_with_replacement(RANKS, 2):
        two: Sequence[AnyCard] = parse_cards(f"{a}s {b}h")
        low.add(rules.labels([two, parse_cards("As Ah Ad Ac Ks")])[0])
    rng = random.Random(7)
    for _ in range(SAMPLED):
        codes = rng.sample(DECK_CODES, 7)
        cards = [card_from_code(code) for code in codes]
        high.add(rules.labels([cards[:2], cards[2:]])[1])
    return tuple(sorted(low)), tuple(sorted(high))


@pytest.mark.parametrize("players", [1, 6])
@pytest.mark.parametrize("game", ["three-card", "paigow"])
@pytest.mark.parametrize(
    # Every name each: the quick lane lays them out in English and in Chinese.
    "locale",
    [
        locale if locale in ("en-US", "zh-CN") else pytest.param(locale, marks=pytest.mark.slow)
        for locale in LOCALES
    ],
)
def test_every_house_hand_name_fits_its_cell_whole(game: str, players: int, locale: str) -> None:
    sample = play_sample(game, players=players)
    rows, title, matrix_names, footer = _showdown_parts(sample.showdown, sample.names, locale)
    # As the channel's picture is chosen: the summary where the full one is too tall (six seats).
    _, height = showdown_size(
        rows, title=title, matrix_names=matrix_names, footer=footer, locale=locale
    )
    summary = height > TALLEST
    assert summary == (players == 6)
    heading = i18n.localize(locale, title)
    *_, layout, _, _, _ = _plan(rows, heading, matrix_names, [], summary, locale)
    style = layout.style
    slots = rows[0].slots if style.slots else ("", "")
    cut = []
    for position, names in enumerate(_names(game)):
        slot = layout.say(slots[position]) if slots[position] else ""
        for name in names:
            label = i18n.localize(locale, hand_name(name))
            _, _, lines = label_lines(
                slot,
                label,
                size=style.label,
                width=layout.cells[position],
                max_lines=style.label_lines,
            )
            if any(line.endswith(ELLIPSIS) for line in lines):
                cut.append(label)
    assert cut == []
