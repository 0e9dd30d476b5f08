"""The house games in the simulator, a chunk at a time: numpy deals and reads every hand at once.

Pai Gow: numpy sets both hands of every round by the house way (``engine.simulate_paigow``, the
sheet's rules over arrays) and compares them. The three-card game: a round's result depends on
far fewer things than its cards. A hand's ranks are named by the product of its cards' primes
(as in the evaluator's lookups); the house way of each of the 455 multisets of three ranks is
played once by the bot's rules, and from those numpy builds, per pair of the player's and the
dealer's multisets, what the main bet reads and (when no five of the six cards share a suit)
the strongest five of the six. Each wager's outcome is kept per class of hands in a dense array
(``engine.simulate_arrays.Classes``), played by the wager's own settlement on the first hand of
the class met: Python touches each class once (a few hundred), numpy every hand.
``benchmarks/check_simulator.py`` plays 1,000,000 random rounds both ways and finds every
result equal; ``tests/engine/test_simulate.py`` and ``test_simulate_paigow.py`` samples.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.cards import Card, card_from_code
from engine.evaluate import PYRAMID_RULES, WheelMode, evaluator
from engine.lookups import PRIMES, encode
from engine.paigow import DECK_CODES, PaiGowVariant
from engine.simulate_arrays import (
    FIVE_BITS,
    FIVE_CARRY,
    SUIT_COUNTS_ARRAY,
    Array,
    Classes,
    FiveCards,
    sort_columns,
)
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

#: The chunk's results: how many rounds ended with each tuple of nets (one per wager).
Nets = Counter[tuple[float, ...]]

_DECK_53: Final = np.array(DECK_CODES, dtype=np.int64)
_PLACES: Final = np.arange(53, dtype=np.uint64)
_ALL_BITS: Final = (1 << 64) - 1


def generator(seed: int, index: int) -> np.random.Generator:
    """Chunk ``index``'s own generator: the same on every platform for a seed and index."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return np.random.default_rng(np.random.SeedSequence(int.from_bytes(digest, "big")))


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

#: Each wager's outcomes are numbered as met; a round's three numbers make one integer.
_OUTCOMES: Final = 32
#: The rank part integer's ladder and its first rank digit (``engine.lookups.encode``).
_LADDER_SHIFT: Final = 24
_FIRST_RANK_SHIFT: Final = 20
_PRIMES: Final = np.array(PRIMES, dtype=np.int64)
#: Every multiset of three ranks (six decks hold up to six cards of a rank).
_TRIPLES: Final = tuple(itertools.combinations_with_replacement(range(2, 15), 3))
_MAIN_KEYS: Final = 64  # the main bet's class keys (36) fit in the low six bits of a pair's key


class _ThreeCard:
    """One variant's three-card classes, each wager's outcome from the bot's own settlement.

    A round's two hands are looked up by their ranks (``index``: the product of the three
    cards' primes names a multiset of ranks, as in the evaluator's lookups), and the pair of
    them gives at once the main bet's class and the 6-card bonus's class when no five of the
    six cards share a suit (``pairs``). Both are built on first use from the house way of each
    of the 455 multisets of three ranks, played by the bot's rules; each wager's outcome per
    class is played, on the first hand of the class met, by its own settlement function.
    """

    def __init__(self, variant: ThreeCardVariant) -> None:
        self.variant = variant
        self.fives = FiveCards(evaluator(PYRAMID_RULES).lookups)
        #: Each wager's nets, numbered in the order met.
        self.nets: tuple[list[Fraction], ...] = ([], [], [])
        #: Per (low hand compared, high hand compared, player trips, player foul).
        self.main = Classes(_MAIN_KEYS, 1, self.play_main)
        #: Per multiset of the player's ranks and whether the three share a suit.
        self.three = Classes(2 * len(_TRIPLES), 1, self.play_three)
        #: Per (the best five's ladder, its first rank, six of a kind, player trips).
        self.six = Classes(1 << 10, 1, self.play_six)
        products = [math.prod(int(_PRIMES[rank * 4]) for rank in ranks) for ranks in _TRIPLES]
        #: The multiset of three ranks (its place in ``_TRIPLES``) by its prime product.
        self.index = np.zeros(max(products) + 1, dtype=np.int64)
        self.index[products] = np.arange(len(_TRIPLES))
        # The house way of each multiset; the suits are any (the house way reads ranks only).
        sides = np.array([self.play_side([r * 4 + s for s, r in enumerate(t)]) for t in _TRIPLES])
        #: Per player's and dealer's multisets (``index`` of each): main bet key | six key << 6.
        self.pairs = _pair_keys(sides, self.fives)

    def outcome(self, wager: int, net: Fraction) -> tuple[int]:
        """The number of a wager's net (a new net takes the next number)."""
        nets = self.nets[wager]
        if net not in nets:
            if len(nets) == _OUTCOMES:
                raise ValueError(f"more than {_OUTCOMES} outcomes of one wager")
            nets.append(net)
        return (nets.index(net),)

    def setting(self, codes: list[int]) -> ThreeCardSetting:
        """The house way of three cards."""
        return house_way([_card(code) for code in codes], self.variant)

    def play_side(self, codes: list[int]) -> tuple[int, int, int, int]:
        """The house way's low rank, high hand (as one integer), trips and foul."""
        setting = self.setting(codes)
        return (
            int(setting.low.rank),
            encode(high_key(setting.high)),
            int(is_three_of_a_kind(setting.cards)),
            int(is_foul(setting)),
        )

    def play_main(self, codes: list[int]) -> tuple[int]:
        player, dealer = self.setting(codes[:3]), self.setting(codes[3:])
        return self.outcome(0, settle_main_bet(player, dealer, self.variant).net)

    def play_three(self, codes: list[int]) -> tuple[int]:
        player = self.setting(codes[:3])
        return self.outcome(1, settle_three_card_bonus(player.cards, self.variant).net)

    def play_six(self, codes: list[int]) -> tuple[int]:
        player, dealer = self.setting(codes[:3]), self.setting(codes[3:])
        return self.outcome(2, settle_six_card_bonus(player.cards, dealer.cards, self.variant).net)

    def outcomes(self, dealt: Array) -> Array:
        """Per round, the number of each wager's outcome (``self.nets``)."""
        primes = [_PRIMES[dealt[:, k]] for k in range(6)]
        player = self.index[primes[0] * primes[1] * primes[2]]
        dealer = self.index[primes[3] * primes[4] * primes[5]]
        keys = self.pairs[player * len(_TRIPLES) + dealer]
        suits = sum(SUIT_COUNTS_ARRAY[dealt[:, k]] for k in range(6))
        flush = np.flatnonzero(((suits + FIVE_CARRY) & FIVE_BITS) != 0)
        if len(flush):
            # Five of the six share a suit: the best five read with the cards' own suits.
            best = self.fives.best(sort_columns([dealt[flush, k] for k in range(6)]))
            kept = keys[flush] & (3 << 6 | _MAIN_KEYS - 1)  # six of a kind, trips, main bet
            keys[flush] = kept | _best_five_key(best) << 8
        suited = ((dealt[:, 0] ^ dealt[:, 1]) | (dealt[:, 0] ^ dealt[:, 2])) & 3 == 0
        main = self.main.results(keys & _MAIN_KEYS - 1, dealt)
        three = self.three.results(player << 1 | suited, dealt)
        six = self.six.results(keys >> 6, dealt)
        return np.concatenate([main, three, six], axis=1)

    def net_values(self) -> list[npt.NDArray[np.float64]]:
        """Each wager's nets as floats, by outcome number."""
        return [np.array([float(net) for net in nets]) for nets in self.nets]


def _best_five_key(best: Array) -> Array:
    """What six_card_bonus_hand reads of the best five: its ladder and its first rank."""
    return (best >> _LADDER_SHIFT) << 4 | (best >> _FIRST_RANK_SHIFT) & 15


def _pair_keys(sides: Array, fives: FiveCards) -> Array:
    """Per (player's multiset, dealer's multiset), ``main key | six key << 6``.

    The main key is what settle_main_bet reads: each hand compared, the player's trips and
    foul. The six key is what settle_six_card_bonus reads when no five cards share a suit (the
    ranks alone decide then): the best five's ladder and first rank, six of a kind, trips.
    """
    count = len(_TRIPLES)
    low, high, trips, foul = (sides[:, i] for i in range(4))
    low_won = np.sign(low[:, None] - low[None, :]) + 1
    high_won = np.sign(high[:, None] - high[None, :]) + 1
    main = ((low_won * 3 + high_won) * 2 + trips[:, None]) * 2 + foul[:, None]
    ranks = np.array(_TRIPLES, dtype=np.int64)
    player, dealer = np.repeat(ranks, count, axis=0), np.tile(ranks, (count, 1))
    six_ranks = np.concatenate([player, dealer], axis=1)
    # Card codes of those ranks, the suits going round: no five of them share a suit.
    codes = [six_ranks[:, k] * 4 + k % 4 for k in range(6)]
    best = fives.best(sort_columns(codes))
    six_of_a_kind = (six_ranks == six_ranks[:, :1]).all(axis=1).reshape(count, count)
    six = (_best_five_key(best).reshape(count, count) << 1 | six_of_a_kind) << 1 | trips[:, None]
    keys: Array = (six << 6 | main).ravel()
    return keys


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
    again = np.arange(hands)
    while len(again):
        drawn = places[again]
        repeated = np.zeros(len(again), dtype=bool)
        for i in range(6):
            for j in range(i + 1, 6):
                repeated |= drawn[:, i] == drawn[:, j]
        again = again[repeated]
        places[again] = rng.integers(0, shoe, (len(again), 6))
    return places % 52 + 8  # card codes: rank * 4 + suit, ranks 2 to 14


def three_card_results(variant: ThreeCardVariant, dealt: Array) -> npt.NDArray[np.float64]:
    """Per round, the player's net per unit on the main bet, the 3-card and the 6-card bonus."""
    game = _three_card(variant)
    outcomes = game.outcomes(dealt)
    nets = game.net_values()
    return np.stack([nets[wager][outcomes[:, wager]] for wager in range(3)], axis=1)


def three_card_chunk(variant: ThreeCardVariant, seed: int, index: int, hands: int) -> Nets:
    """``hands`` rounds of the three-card game: six cards from a full shoe every round."""
    game = _three_card(variant)
    outcomes = game.outcomes(deal_three_card(generator(seed, index), hands, variant.decks))
    rounds = (outcomes[:, 0] * _OUTCOMES + outcomes[:, 1]) * _OUTCOMES + outcomes[:, 2]
    counts = np.bincount(rounds)
    nets = game.net_values()
    found = []
    for number in np.flatnonzero(counts).tolist():
        main, rest = divmod(number, _OUTCOMES * _OUTCOMES)
        three, six = divmod(rest, _OUTCOMES)
        net = (float(nets[0][main]), float(nets[1][three]), float(nets[2][six]))
        found.append((net, int(counts[number])))
    # In order of the nets, so that the sums over them add up in the same order every run.
    return Counter(dict(sorted(found)))
