"""Seed 003's "strong house way" sheet: how the banker (and a fouled player hand) is set.

Every rule of the sheet is one small function below, named after it and quoting it. Where the
sheet is ambiguous or silent, the reading chosen is written in ``docs/rules.md`` (Pai Gow poker,
"The house way") and in a comment here. The joker counts as an ace when cards are grouped by rank;
it plays as the bug wherever it ends up.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import JOKER_CODE, AnyCard
from engine.evaluate import ACE, FLUSH, PAIR, STRAIGHT, straight_flush_ladder
from engine.lookups import ladder_of
from engine.paigow import PaiGowKeys, PaiGowSetting, PaiGowVariant, Role, low_key_codes

KING: Final = 13
QUEEN: Final = 12
JACK: Final = 11
TEN: Final = 10
_STRAIGHT_FLUSH: Final = straight_flush_ladder(5)

#: A setting as codes: (5-card high hand, 2-card low hand).
Codes = tuple[int, ...]
SettingCodes = tuple[Codes, Codes]


def _rank(code: int) -> int:
    return ACE if code == JOKER_CODE else code >> 2


@dataclass(frozen=True, slots=True)
class _Groups:
    """The seven cards grouped by rank (joker with the aces), biggest group first."""

    ranks: tuple[int, ...]
    cards: tuple[Codes, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(group) for group in self.cards)

    def singles(self) -> Codes:
        """Cards of the groups of one, highest first."""
        return tuple(group[0] for group in self.cards if len(group) == 1)


def _group(codes: Sequence[int]) -> _Groups:
    by_rank: dict[int, list[int]] = {}
    # The joker (code 0) comes last, so that a split group of aces keeps the real aces together.
    for code in sorted(codes, reverse=True):
        by_rank.setdefault(code >> 2 or ACE, []).append(code)
    order = sorted(by_rank, key=lambda r: (len(by_rank[r]), r), reverse=True)
    return _Groups(tuple(order), tuple(tuple(by_rank[r]) for r in order))


def _top(low: Sequence[int]) -> tuple[int, ...]:
    return low_key_codes(low)


def _is_pair(top: tuple[int, ...]) -> bool:
    return top[0] == PAIR


def _is_ace_high(top: tuple[int, ...]) -> bool:
    return top[0] != PAIR and top[1] == ACE


def _is_ace_face(top: tuple[int, ...]) -> bool:
    """An ace with a king, queen or jack ("Ace-face" in the sheet)."""
    return _is_ace_high(top) and top[2] >= JACK


def _rest(codes: Sequence[int], *taken: Sequence[int]) -> Codes:
    rest = list(codes)
    for group in taken:
        for code in group:
            rest.remove(code)
    return tuple(rest)


def _with_low(codes: Sequence[int], low: Sequence[int]) -> SettingCodes:
    return _rest(codes, low), tuple(low)


# --- Hands without a straight or flush --------------------------------------------------------


def pai_gow(codes: Sequence[int]) -> SettingCodes:
    """ "Highest card in five card hand, 2nd and 3rd strongest on two card side"."""
    ordered = sorted(codes, key=_rank, reverse=True)
    return _with_low(codes, ordered[1:3])


def one_pair(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """ "Always play pair in five card side, with next two strongest cards up"."""
    return _with_low(codes, g.singles()[:2])


def two_pairs_split(high: int, low: int, singles: Sequence[int]) -> bool:
    """The sheet's two-pair rules, in its order: True to split (high pair behind, low in front).

    Reading: the "always split" sentence comes before "always keep ... with an Ace-face", and the
    second list ("Split two pairs Kings with 3's ...") applies even with an ace-low top.
    """
    s1, s2 = _rank(singles[0]), _rank(singles[1])
    if high == ACE or (high == KING and low >= 7):
        return True  # "Always split Ace-high two pairs, and Kings with 7's or better."
    if s1 == ACE and s2 >= JACK:
        # "Except: always split two pairs of four face cards without an AK top."
        return low >= JACK and s2 != KING
    if high <= 6:
        return False  # "Never split two pairs of 6's and lower."
    if (
        (high == KING and low >= 3)
        or (high == QUEEN and low >= 5)
        or (high in (JACK, TEN) and low in (8, 9))
    ):
        return True
    return s1 != ACE  # "All other two pairs keep together with any ace top, else split."


def two_pairs(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """Two pairs: split or keep together per ``two_pairs_split``."""
    high, low = g.ranks[0], g.ranks[1]
    singles = g.singles()
    if two_pairs_split(high, low, singles):
        return _with_low(codes, g.cards[1])
    return _with_low(codes, singles[:2])


def three_pairs(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """ "Three pairs: play highest pair in two-card side"."""
    return _with_low(codes, g.cards[0])


def three_of_a_kind(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """Aces split 2-and-1; kings split with a jack or lower top; queens and less never break up."""
    trips, singles = g.cards[0], g.singles()
    rank, top = g.ranks[0], _rank(singles[0])
    if rank == ACE or (rank == KING and top not in (ACE, QUEEN)):
        # "Three aces always split 2-and-1"; "Three Kings always split 2-and-1 with Jack or
        # lower top, else keep together with an ace or a queen top".
        return _with_low(codes, (trips[0], singles[0]))
    return _with_low(codes, singles[:2])


def two_three_of_a_kinds(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """ "Split off a pair from the higher group for the top"."""
    return _with_low(codes, g.cards[0][:2])


def keeps_full_house(pair: int, singles: Sequence[int]) -> bool:
    """A full house stays behind only with a small pair and an ace-face (seed 003, full house)."""
    if len(singles) < 2 or _rank(singles[0]) != ACE:
        return False
    second = _rank(singles[1])
    # "pair is 5's or less, and your hand has an AK (AQ with 4's or 3's, AJ with 2's)".
    needed = {5: KING, 4: QUEEN, 3: QUEEN, 2: JACK}.get(pair)
    return needed is not None and second >= needed


def full_house(g: _Groups, codes: Sequence[int], *, split: bool = False) -> SettingCodes:
    """Split the pair part up (the higher pair with an extra pair) unless ``keeps_full_house``."""
    singles = g.singles()
    if not split and len(g.cards) == 4 and keeps_full_house(g.ranks[1], singles):
        return _with_low(codes, singles[:2])
    return _with_low(codes, g.cards[1])


def four_of_a_kind(g: _Groups, codes: Sequence[int], role: Role) -> SettingCodes:
    """Four of a kind with three singles: keep, split into two pairs, or split off an ace top."""
    quads, singles = g.cards[0], g.singles()
    rank = g.ranks[0]
    s1, s2 = _rank(singles[0]), _rank(singles[1])
    keep = singles[:2]
    two_pairs_low = quads[:2]
    ace_top = (quads[0], singles[0])  # "split into 3 kings and AK top"
    if rank == ACE:
        # "split into two pairs of aces if playing against dealer, - but split into three aces
        # with an ace up if a banking player or casino dealer."
        return _with_low(codes, ace_top if role is Role.BANKER else two_pairs_low)
    if rank == KING:
        if s1 != ACE:
            return _with_low(codes, two_pairs_low)
        return _with_low(codes, keep if s2 in (QUEEN, JACK) else ace_top)
    if rank == QUEEN:
        if s1 != ACE:
            return _with_low(codes, two_pairs_low)
        return _with_low(codes, keep if s2 >= 8 else ace_top)
    if rank in (JACK, TEN):
        return _with_low(codes, keep if s1 == ACE else two_pairs_low)
    if rank in (9, 8):
        kept = s1 == ACE or (s1 == KING and s2 >= JACK)  # "any King-face top or better"
        return _with_low(codes, keep if kept else two_pairs_low)
    if rank in (7, 6):
        kept = s1 >= KING or (s1 == QUEEN and s2 == JACK)  # "a QJ or better top"
        return _with_low(codes, keep if kept else two_pairs_low)
    return _with_low(codes, keep)  # "5's or less: always keep together."


def four_of_a_kind_with_pair(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """Keep the four together with the pair up, except aces or kings with 3's or 2's."""
    if g.ranks[0] in (ACE, KING) and g.ranks[1] in (2, 3):
        return _with_low(codes, g.cards[0][:2])
    return _with_low(codes, g.cards[1])


def four_and_three_of_a_kind(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """Pair from the higher group up, unless the groups are adjacent: then keep the four."""
    four, three = g.cards
    if abs(g.ranks[0] - g.ranks[1]) == 1 or g.ranks[1] > g.ranks[0]:
        return _with_low(codes, three[:2])
    return _with_low(codes, four[:2])


def five_aces(g: _Groups, codes: Sequence[int]) -> SettingCodes:
    """A pair of aces up and three aces (with any pair, a full house) behind; kings go up.

    Not on the sheet: seed 003's advice decides ("a pair of aces in front and three aces (or a
    full house) behind, unless the back pair is of kings"; RULINGS §6).
    """
    if len(g.cards) == 2 and g.ranks[1] == KING:
        return _with_low(codes, g.cards[1])
    return _with_low(codes, g.cards[0][:2])


# --- Straights and flushes ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Option:
    """One way to play a straight, flush or straight flush behind."""

    top: tuple[int, ...]
    back: tuple[int, ...]
    setting: SettingCodes

    @property
    def is_flush(self) -> bool:
        """A flush or a straight flush ("Straight flush: handle as straight or flush")."""
        return self.back[0] != STRAIGHT


_RUN_MASKS: Final = tuple(0b11111 << low for low in range(1, 11))
_RUN_LADDERS: Final = frozenset({STRAIGHT, FLUSH, _STRAIGHT_FLUSH})


def _could_run_or_flush(codes: Sequence[int]) -> bool:
    """Cheap test: can any five of these cards make a straight or a flush?"""
    need = 5 - codes.count(JOKER_CODE)
    suits = [0, 0, 0, 0]
    ranks = 0
    for code in codes:
        if code != JOKER_CODE:
            suits[code & 3] += 1
            ranks |= 1 << (code >> 2)
    if max(suits) >= need:
        return True
    if ranks >> ACE & 1:
        ranks |= 2  # the ace also plays low, as rank 1
    return any((ranks & mask).bit_count() >= need for mask in _RUN_MASKS)


def straight_flush_options(codes: Sequence[int], keys: PaiGowKeys) -> list[_Option]:
    """Every setting with a straight, a flush or a straight flush behind."""
    if not _could_run_or_flush(codes):
        return []
    options = []
    rank, part_of = keys.evaluator.rank, keys.evaluator.part_of
    # Every choice of two cards up, in the order of itertools.combinations(codes, 2).
    for i, j, rest in _SPLITS_OF_SEVEN if len(codes) == 7 else _splits(len(codes)):
        high = rest(codes)
        value = rank(high)
        if ladder_of(value) in _RUN_LADDERS:
            low = (codes[i], codes[j])
            options.append(_Option(_top(low), part_of(value), (high, low)))
    return options


def _splits(size: int) -> tuple[tuple[int, int, Callable[[Sequence[int]], Codes]], ...]:
    """Per two cards up (by position), a getter of the other cards as a tuple."""
    splits = []
    for i, j in itertools.combinations(range(size), 2):
        rest = [k for k in range(size) if k not in (i, j)]
        splits.append((i, j, _getter(rest)))
    return tuple(splits)


def _getter(positions: list[int]) -> Callable[[Sequence[int]], Codes]:
    get = operator.itemgetter(*positions)
    if len(positions) == 1:
        return lambda codes: (get(codes),)
    return get


def _same_top(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """ "adjacent or essentially the same" tops: same top card, or both Q-x or lower."""
    if _is_pair(a) or _is_pair(b):
        return False
    return a[1] == b[1] or (a[1] <= QUEEN and b[1] <= QUEEN)


def best_straight_or_flush(options: Sequence[_Option]) -> _Option:
    """ "Straight with Flush": the higher top, or the flush when the tops are about the same.

    A long straight or flush is played low for the best top ("6 or 7 card long straight").
    """
    straights = [o for o in options if not o.is_flush]
    flushes = [o for o in options if o.is_flush]
    best_s = max(straights, key=lambda o: (o.top, o.back), default=None)
    best_f = max(flushes, key=lambda o: (o.top, o.back), default=None)
    if best_s is None or best_f is None:
        found = best_s or best_f
        assert found is not None
        return found
    if _same_top(best_s.top, best_f.top) or best_f.top >= best_s.top:
        return best_f
    return best_s


def _prefers_pair_to_run(g: _Groups, run_top: tuple[int, ...]) -> bool:
    """ "Straight or Flush with one pair": a strong pair with a good top beats a Q-x run top."""
    if _is_pair(run_top) or _is_ace_face(run_top) or run_top[1] > QUEEN:
        return False
    singles = g.singles()
    pair_top = _top(singles[:2])
    pair = g.ranks[0]
    if pair in (JACK, QUEEN, KING):
        return _is_ace_face(pair_top)  # "(e.g., KQQJ*93, play Q's with *AK up)"
    return pair == ACE and pair_top >= (0, KING, QUEEN, 0)  # "play AAxxx with KQ up"


def _prefers_two_pairs_to_run(g: _Groups, run_top: tuple[int, ...]) -> bool:
    """ "Straight or Flush with two other pairs", after the Ace-face-or-pair-top rule.

    Reading: aces with 8's or better are played as two pairs whenever the run gives no pair top.
    """
    if _is_pair(run_top):
        return False
    high, low = g.ranks[0], g.ranks[1]
    if high == ACE and low >= 8:
        return True
    if _is_ace_high(run_top):
        return False  # "Play as two pairs only if: The straight or flush does not have an ace top"
    has_ace_single = any(_rank(c) == ACE for c in g.singles())
    return high >= JACK or has_ace_single  # "Face-high two pairs" or "any ace-high two-card"


def _prefers_split_full_house(g: _Groups, run_top: tuple[int, ...]) -> bool:
    """ "Straight or flush with full house"."""
    aces_up = g.ranks[1] == ACE and (not _is_pair(run_top) or run_top[1] != ACE)
    return aces_up or not _is_pair(run_top)


_SPLITS_OF_SEVEN: Final = _splits(7)


# --- The whole sheet ---------------------------------------------------------------------------


def house_way_codes(codes: Sequence[int], role: Role, keys: PaiGowKeys) -> SettingCodes:
    """Set seven card codes by the sheet: (5-card high hand, 2-card low hand)."""
    return _set(_group(codes), codes, role, keys)


def house_ways_codes(codes: Sequence[int], keys: PaiGowKeys) -> tuple[SettingCodes, SettingCodes]:
    """The player's and the banker's settings of the same seven cards, grouped once.

    The sheet sets only four of a kind with three singles differently for the banker.
    """
    g = _group(codes)
    player = _set(g, codes, Role.PLAYER, keys)
    if _is_four_with_singles(g.shape):
        return player, _set(g, codes, Role.BANKER, keys)
    return player, player


def _is_four_with_singles(shape: tuple[int, ...]) -> bool:
    return shape[0] == 4 and shape not in ((4, 3), (4, 2, 1))


def _set(g: _Groups, codes: Sequence[int], role: Role, keys: PaiGowKeys) -> SettingCodes:
    shape = g.shape
    if shape[0] == 5:
        return five_aces(g, codes)
    if shape == (4, 3):
        return four_and_three_of_a_kind(g, codes)
    if shape == (4, 2, 1):
        return four_of_a_kind_with_pair(g, codes)
    if _is_four_with_singles(shape):
        return four_of_a_kind(g, codes, role)
    if shape == (3, 3, 1):
        return two_three_of_a_kinds(g, codes)
    if shape == (2, 2, 2, 1):
        # "Straight or flush with three pairs: Always play as three pair hand."
        return three_pairs(g, codes)
    options = straight_flush_options(codes, keys)
    if options:
        run = best_straight_or_flush(options)
        if _plays_run(g, run.top):
            return run.setting
    if shape[0] == 3:
        if shape[1] == 2:
            return full_house(g, codes, split=bool(options))
        return three_of_a_kind(g, codes)
    if shape == (2, 2, 1, 1, 1):
        return two_pairs(g, codes)
    if shape[0] == 2:
        return one_pair(g, codes)
    return pai_gow(codes)


def _plays_run(g: _Groups, top: tuple[int, ...]) -> bool:
    """Whether the straight or flush beats the hand's other reading, rule by rule."""
    shape = g.shape
    if shape[0] == 3 and shape[1] == 2:
        # "else play the straight or flush if a pair can be put up ..., else ... full house".
        return not _prefers_split_full_house(g, top)
    if shape[0] == 3:
        # "Straight or flush with three of a kind: always play as straight or flush with pair
        # or ace up."
        return _is_pair(top) or _is_ace_high(top)
    if shape == (2, 2, 1, 1, 1):
        return not _prefers_two_pairs_to_run(g, top)
    if shape[0] == 2:
        return not _prefers_pair_to_run(g, top)
    return True


def house_way(
    cards: Sequence[AnyCard], *, role: Role = Role.BANKER, variant: PaiGowVariant | None = None
) -> PaiGowSetting:
    """Set seven cards the house way (seed 003's "strong house way" sheet)."""
    if len(cards) != 7:
        raise ValueError(f"a Pai Gow hand has 7 cards, not {len(cards)}")
    keys = (variant or PaiGowVariant()).keys
    high, low = house_way_codes([card.code for card in cards], role, keys)
    return PaiGowSetting.from_codes(high, low)


def set_player_hand_codes(
    codes: Sequence[int], chosen: SettingCodes | None, keys: PaiGowKeys
) -> SettingCodes:
    """The player's setting, re-set the house way if fouled (RULINGS §6)."""
    if chosen is not None and not keys.is_foul(chosen[0], chosen[1]):
        return chosen
    return house_way_codes(codes, Role.PLAYER, keys)


def set_player_hand(
    cards: Sequence[AnyCard], chosen: PaiGowSetting | None, variant: PaiGowVariant | None = None
) -> PaiGowSetting:
    """The player's own setting, or the house way if it fouls or there is none (RULINGS §6)."""
    keys = (variant or PaiGowVariant()).keys
    high, low = set_player_hand_codes(
        [card.code for card in cards], None if chosen is None else chosen.codes, keys
    )
    return PaiGowSetting.from_codes(high, low)
