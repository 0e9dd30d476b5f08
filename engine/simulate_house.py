"""The house games in the simulator, a chunk at a time: numpy deals and reads every hand at once.

Pai Gow: numpy sets both hands of every round by the house way (``engine.simulate_paigow``, the
sheet's rules over arrays) and compares them. The three-card game: a round's result depends on
far fewer things than its cards: the ranks, and which ranks share a suit where a flush is
possible at all. numpy deals a whole chunk and reads each hand's class (products of the cards'
primes, a suit mask where five cards could share a suit, as the evaluator's lookups do); each
class met for the first time is played once by the bot's own code (the house way, the hand
keys, the wagers' settlements) on the first hand of it, and every other hand of the class takes
that result. ``benchmarks/check_simulator.py`` plays 1,000,000 random rounds both ways and
finds every result equal; ``tests/engine/test_simulate.py`` and ``test_simulate_paigow.py``
samples.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.cards import JOKER_CODE, Card, card_from_code
from engine.evaluate import WheelMode
from engine.lookups import PRIMES, SUIT_COUNTS, SUIT_MASKS, encode
from engine.paigow import DECK_CODES, PaiGowVariant
from engine.simulate_paigow import PaiGowArrays
from engine.three_card import (
    ThreeCardSetting,
    ThreeCardVariant,
    high_key,
    house_way,
    is_foul,
    is_three_of_a_kind,
    settle_main_bet,
    settle_six_card_bonus,
    settle_three_card_bonus,
)

Array = npt.NDArray[np.int64]
#: The chunk's results: how many rounds ended with each tuple of nets (one per wager).
Nets = Counter[tuple[float, ...]]

_PRIMES: Final = np.array(PRIMES, dtype=np.int64)
_SUIT_COUNTS: Final = np.array(SUIT_COUNTS, dtype=np.int64)
_SUIT_MASKS: Final = np.array(SUIT_MASKS, dtype=np.int64)
#: Each card's rank as one bit (the joker none), for the ranks of the suit a flush may take.
_RANK_BITS: Final = np.array(
    [0 if code < 8 else 1 << (code >> 2) for code in range(64)], dtype=np.int64
)
_DECK_53: Final = np.array(DECK_CODES, dtype=np.int64)
_PLACES: Final = np.arange(53, dtype=np.uint64)
_ALL_BITS: Final = (1 << 64) - 1


def generator(seed: int, index: int) -> np.random.Generator:
    """Chunk ``index``'s own generator: the same on every platform for a seed and index."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return np.random.default_rng(np.random.SeedSequence(int.from_bytes(digest, "big")))


def _flush_ranks(cards: Array) -> Array:
    """Per hand, the rank bits of the suit holding five cards or more (jokers in every suit).

    0 when no suit does: then no five of the cards share a suit and only the ranks count.
    """
    totals = _SUIT_COUNTS[cards].sum(axis=1)
    counts = np.stack([(totals >> 4 * suit) & 15 for suit in range(4)], axis=1)
    suit = counts.argmax(axis=1)
    suited = ((cards & 3) == suit[:, None]) & (cards != JOKER_CODE)
    # OR, not a sum: several decks may hold the same card twice.
    bits = np.bitwise_or.reduce(np.where(suited, _RANK_BITS[cards], 0), axis=1)
    return np.where(counts.max(axis=1) >= 5, bits, 0)


class _Classes:
    """A result row per class key, found by bisection; a class met for the first time is played.

    The keys stay sorted in one array and the rows in another, so a chunk looks all of its
    hands up at once; only classes not met before go through Python (``play``).
    """

    def __init__(self, width: int, play: Callable[[list[int]], tuple[float, ...]]) -> None:
        self.keys: Array = np.empty(0, dtype=np.int64)
        self.rows: npt.NDArray[np.float64] = np.empty((0, width))
        self.play = play

    def __len__(self) -> int:
        return len(self.keys)

    def results(self, keys: Array, cards: Array) -> npt.NDArray[np.float64]:
        """Each hand's row; ``cards[i]`` is what ``play`` gets for a new class of hand ``i``."""
        classes, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        at = np.searchsorted(self.keys, classes)
        known = np.zeros(len(classes), dtype=bool)
        inside = at < len(self.keys)
        known[inside] = self.keys[at[inside]] == classes[inside]
        if not known.all():
            new = ~known
            rows = [self.play(cards[i].tolist()) for i in first[new].tolist()]
            self.keys = np.insert(self.keys, at[new], classes[new])
            self.rows = np.insert(self.rows, at[new], np.array(rows, dtype=np.float64), axis=0)
            at = np.searchsorted(self.keys, classes)
        return self.rows[at][inverse.reshape(-1)]


def _count(nets: npt.NDArray[np.float64]) -> Nets:
    """How many rounds ended with each row of nets."""
    rows, counts = np.unique(nets, axis=0, return_counts=True)
    return Counter({tuple(row): n for row, n in zip(rows.tolist(), counts.tolist(), strict=True)})


# --- Pai Gow poker ---------------------------------------------------------------------------


@cache
def _pai_gow(wheel: WheelMode) -> tuple[PaiGowVariant, PaiGowArrays]:
    variant = PaiGowVariant(wheel=wheel)
    return variant, PaiGowArrays(variant.keys)


def deal_pai_gow(rng: np.random.Generator, hands: int) -> Array:
    """(hands, 14) card codes from fresh 53-card decks: the player's seven, then the banker's.

    The first 14 places of a random order of the deck: ``argsort(rng.random((hands, 53)))``'s
    first 14 columns, the same cards for the same generator, at a fraction of the cost.
    """
    # rng.random() is the generator's next 64 bits shifted right by 11, times 2**-53: those
    # 53-bit integers order the places as the floats do, with no float made. With each place
    # in the low six bits, the 14 lowest (a partition) sorted are the argsort's first 14.
    keyed = rng.bit_generator.random_raw((hands, 53))
    np.right_shift(keyed, np.uint64(11 - 6), out=keyed)
    np.bitwise_and(keyed, np.uint64(~63 & _ALL_BITS), out=keyed)
    np.bitwise_or(keyed, _PLACES, out=keyed)
    keyed.partition(13, axis=1)
    first = keyed[:, :14]
    first.sort(axis=1)
    return _DECK_53[(first & np.uint64(63)).astype(np.intp)]


def pai_gow_results(wheel: WheelMode, dealt: Array) -> npt.NDArray[np.int64]:
    """Per round: 1 if the player wins both hands, -1 if neither, else 0 (``settle_codes``)."""
    _, arrays = _pai_gow(wheel)
    hands = len(dealt)
    banker = np.tile(np.array([False, True]), hands)  # each round: the player's, the banker's
    high, low = arrays.settings(dealt.reshape(hands * 2, 7), banker)
    # Seed 003: both hands must beat the banker's (ties go to the banker) to win; one to push.
    won_high = high[0::2] > high[1::2]
    won_low = low[0::2] > low[1::2]
    return won_high.astype(np.int64) + won_low - 1


def pai_gow_chunk(wheel: WheelMode, seed: int, index: int, hands: int) -> Nets:
    """``hands`` rounds of Pai Gow, house way against house way, from fresh 53-card decks."""
    result = pai_gow_results(wheel, deal_pai_gow(generator(seed, index), hands))
    won = float(1 - _pai_gow(wheel)[0].commission)
    counts = np.bincount(result + 1, minlength=3).tolist()
    nets = ((-1.0,), (0.0,), (won,))
    return Counter({net: n for net, n in zip(nets, counts, strict=True) if n})


# --- The three-card game ---------------------------------------------------------------------


class _ThreeCard:
    """One variant's three-card classes, each wager's net from the bot's own settlement."""

    def __init__(self, variant: ThreeCardVariant) -> None:
        self.variant = variant
        #: Per three cards' ranks: the house way's low rank, high hand and trips, foul flags.
        self.sides = _Classes(4, self.play_side)
        #: Per (low hand compared, high hand compared, player trips, player foul): the main bet.
        self.main = _Classes(1, self.play_main)
        self.three = _Classes(1, self.play_three)
        self.six = _Classes(1, self.play_six)

    def setting(self, codes: list[int]) -> ThreeCardSetting:
        """The house way of three cards."""
        return house_way([_card(code) for code in codes], self.variant)

    def play_side(self, codes: list[int]) -> tuple[float, ...]:
        setting = self.setting(codes)
        return (
            float(setting.low.rank),
            float(encode(high_key(setting.high))),
            float(is_three_of_a_kind(setting.cards)),
            float(is_foul(setting)),
        )

    def play_main(self, codes: list[int]) -> tuple[float, ...]:
        player, dealer = self.setting(codes[:3]), self.setting(codes[3:])
        return (float(settle_main_bet(player, dealer, self.variant).net),)

    def play_three(self, codes: list[int]) -> tuple[float, ...]:
        player = self.setting(codes[:3])
        return (float(settle_three_card_bonus(player.cards, self.variant).net),)

    def play_six(self, codes: list[int]) -> tuple[float, ...]:
        player, dealer = self.setting(codes[:3]), self.setting(codes[3:])
        return (float(settle_six_card_bonus(player.cards, dealer.cards, self.variant).net),)


def _card(code: int) -> Card:
    card = card_from_code(code)
    assert isinstance(card, Card)
    return card


@cache
def _three_card(variant: ThreeCardVariant) -> _ThreeCard:
    return _ThreeCard(variant)


def deal_three_card(rng: np.random.Generator, hands: int, decks: int) -> Array:
    """(hands, 6) card codes, each round from a full shoe: the player's three, the dealer's."""
    shoe = 52 * decks
    # Six distinct places in the shoe: draws with a repeated place are drawn again (rejection
    # keeps every set of six places equally likely).
    places = rng.integers(0, shoe, (hands, 6))
    while True:
        ordered = np.sort(places, axis=1)
        again = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not again.any():
            break
        places[again] = rng.integers(0, shoe, (int(again.sum()), 6))
    return places % 52 + 8  # card codes: rank * 4 + suit, ranks 2 to 14


def three_card_results(variant: ThreeCardVariant, dealt: Array) -> npt.NDArray[np.float64]:
    """Per round, the player's net per unit on the main bet, the 3-card and the 6-card bonus."""
    game = _three_card(variant)
    hands = len(dealt)
    primes = _PRIMES[dealt]
    threes = dealt.reshape(hands * 2, 3)
    side_keys = primes.reshape(hands * 2, 3).prod(axis=1)
    sides = game.sides.results(side_keys, threes).reshape(hands, 2, 4)
    low = np.sign(sides[:, 0, 0] - sides[:, 1, 0]).astype(np.int64) + 1
    high = np.sign(sides[:, 0, 1] - sides[:, 1, 1]).astype(np.int64) + 1
    trips, foul = sides[:, 0, 2].astype(np.int64), sides[:, 0, 3].astype(np.int64)
    main = game.main.results(((low * 3 + high) * 2 + trips) * 2 + foul, dealt)
    player, dealer = side_keys[0::2], side_keys[1::2]
    suited = (np.bitwise_and.reduce(_SUIT_MASKS[dealt[:, :3]], axis=1) != 0).astype(np.int64)
    three = game.three.results(player * 2 + suited, dealt)
    six = game.six.results((player * dealer * (1 << 15) + _flush_ranks(dealt)) * 2 + trips, dealt)
    return np.concatenate([main, three, six], axis=1)


def three_card_chunk(variant: ThreeCardVariant, seed: int, index: int, hands: int) -> Nets:
    """``hands`` rounds of the three-card game: six cards from a full shoe every round."""
    dealt = deal_three_card(generator(seed, index), hands, variant.decks)
    return _count(three_card_results(variant, dealt))
