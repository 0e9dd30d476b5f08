"""Monte Carlo simulator of the games played against the house: every wager's edge, measured.

Hands are dealt in fixed chunks; chunk ``i`` draws from its own generator seeded from the run's
seed and ``i``, so a result depends on the seed and the number of hands, never on how many
worker processes share the chunks. A game joins the simulator with one ``SimulatedGame`` entry.
The house games play a whole chunk at once (``engine.simulate_house``: numpy deals and reads
every hand; Pai Gow's house way runs over arrays, the three-card game's classes of hands are
each decided once by the bot's own rules); the Casino Version one round at a time.
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Final

from engine.errors import GameError
from engine.evaluate import WheelMode
from engine.paigow import PaiGowVariant
from engine.simulate_house import pai_gow_chunk, three_card_chunk
from engine.solver.casino_sim import CASINO_WAGERS, casino_round, describe_casino
from engine.three_card import ThreeCardVariant

#: Hands per chunk: fixed, so that the chunks (and their seeds) do not depend on the workers.
CHUNK_HANDS: Final = 20_000


@dataclass(frozen=True, slots=True)
class SimulationOptions:
    """Table options a simulation may change; each game says which it takes."""

    decks: int | None = None
    ties_to_dealer: bool = False
    wheel: WheelMode = WheelMode.SECOND


#: One chunk of rounds: (options, seed, chunk index, hands) -> how many rounds ended with each
#: tuple of nets per unit (one per wager). Runs inside each worker: a module-level function.
PlayChunk = Callable[[SimulationOptions, int, int, int], Counter[tuple[float, ...]]]


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """A game against the house as the simulator sees it."""

    name: str
    wagers: tuple[str, ...]
    #: Names of the ``SimulationOptions`` fields the game takes.
    takes: frozenset[str]
    play_chunk: PlayChunk
    #: Builds the game's variant from the options, which checks its own numbers.
    check: Callable[[SimulationOptions], object]
    describe: Callable[[SimulationOptions], str]


def _paigow_variant(options: SimulationOptions) -> PaiGowVariant:
    return PaiGowVariant(wheel=options.wheel)


def _paigow_chunk(
    options: SimulationOptions, seed: int, index: int, hands: int
) -> Counter[tuple[float, ...]]:
    return pai_gow_chunk(options.wheel, seed, index, hands)


def _describe_paigow(options: SimulationOptions) -> str:
    variant = _paigow_variant(options)
    wheel = "Nevada" if variant.wheel is WheelMode.SECOND else "California"
    return (
        f"house way against house way, 53 cards, {wheel} wheel, "
        f"{float(variant.commission):.0%} commission, ties to the banker"
    )


def _three_card_variant(options: SimulationOptions) -> ThreeCardVariant:
    decks = 6 if options.decks is None else options.decks
    return ThreeCardVariant(decks=decks, ties_to_dealer=options.ties_to_dealer)


def _three_card_chunk(
    options: SimulationOptions, seed: int, index: int, hands: int
) -> Counter[tuple[float, ...]]:
    # Every round comes from a full shoe (a continuous shuffler), as the exact count assumes.
    return three_card_chunk(_three_card_variant(options), seed, index, hands)


def _describe_three_card(options: SimulationOptions) -> str:
    variant = _three_card_variant(options)
    ties = "ties go to the dealer" if variant.ties_to_dealer else "ties push (as written)"
    return f"house way against house way, {variant.decks} decks reshuffled every round, {ties}"


def _casino_chunk(
    options: SimulationOptions, seed: int, index: int, hands: int
) -> Counter[tuple[float, ...]]:
    # The solver sets each holding: one round at a time, dealt by Python's generator.
    play = casino_round(options)
    rng = random.Random(_chunk_seed(seed, index))
    counts: Counter[tuple[float, ...]] = Counter()
    for _ in range(hands):
        counts[play(rng)] += 1
    return counts


#: Every game the simulator plays, by its command-line name.
GAMES: Final[dict[str, SimulatedGame]] = {
    "casino": SimulatedGame(
        "casino", CASINO_WAGERS, frozenset(), _casino_chunk, casino_round, describe_casino
    ),
    "paigow": SimulatedGame(
        name="paigow",
        wagers=("bet",),
        takes=frozenset({"wheel"}),
        play_chunk=_paigow_chunk,
        check=_paigow_variant,
        describe=_describe_paigow,
    ),
    "three-card": SimulatedGame(
        name="three-card",
        wagers=("main", "three_card_bonus", "six_card_bonus"),
        takes=frozenset({"decks", "ties_to_dealer"}),
        play_chunk=_three_card_chunk,
        check=_three_card_variant,
        describe=_describe_three_card,
    ),
}


@dataclass(frozen=True, slots=True)
class WagerStats:
    """One wager's measured return, per unit staked."""

    wager: str
    hands: int
    ev: float
    se: float
    win: float
    push: float
    loss: float
    nets: tuple[tuple[float, int], ...]


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What a run measured, with what it was asked."""

    variant: str
    hands: int
    seed: int
    description: str
    wagers: tuple[WagerStats, ...]


def _chunk_seed(seed: int, index: int) -> str:
    # A string seed is hashed with SHA-512 by ``random.Random``: stable across runs and platforms.
    return f"{seed}:{index}"


def _run_chunk(
    variant: str, options: SimulationOptions, seed: int, index: int, hands: int
) -> Counter[tuple[float, ...]]:
    return GAMES[variant].play_chunk(options, seed, index, hands)


def _wager_stats(wager: str, counts: Counter[float], hands: int) -> WagerStats:
    mean = sum(net * n for net, n in counts.items()) / hands
    spread = sum(n * (net - mean) ** 2 for net, n in counts.items())
    variance = spread / (hands - 1) if hands > 1 else 0.0
    return WagerStats(
        wager=wager,
        hands=hands,
        ev=mean,
        se=math.sqrt(variance / hands),
        win=sum(n for net, n in counts.items() if net > 0) / hands,
        push=counts.get(0.0, 0) / hands,
        loss=sum(n for net, n in counts.items() if net < 0) / hands,
        nets=tuple(sorted(counts.items())),
    )


def check_options(variant: str, options: SimulationOptions) -> None:
    """Raise ``GameError`` for an unknown variant or an option the variant does not take."""
    game = GAMES.get(variant)
    if game is None:
        raise GameError(f"No simulator for {variant!r}; choose one of: {', '.join(GAMES)}.")
    given = {
        "decks": options.decks is not None,
        "ties_to_dealer": options.ties_to_dealer,
        "wheel": options.wheel is not WheelMode.SECOND,
    }
    for name, is_set in given.items():
        if is_set and name not in game.takes:
            flag = "--" + name.replace("_", "-")
            raise GameError(f"{flag} does not apply to {variant}.")
    game.check(options)  # builds the variant, which checks its own numbers


def simulate(
    variant: str,
    *,
    hands: int,
    seed: int,
    options: SimulationOptions | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_hands: int = CHUNK_HANDS,
) -> SimulationResult:
    """Play ``hands`` rounds house way against house way; ``progress`` gets hands done so far."""
    options = options or SimulationOptions()
    check_options(variant, options)
    if hands < 1:
        raise GameError("Simulate at least one hand.")
    if workers is not None and workers < 1:
        raise GameError("Simulate with at least one worker process.")
    sizes = [min(chunk_hands, hands - start) for start in range(0, hands, chunk_hands)]
    workers = min(workers or os.cpu_count() or 1, len(sizes))
    results: dict[int, Counter[tuple[float, ...]]] = {}
    done = 0
    if workers == 1:
        for index, size in enumerate(sizes):
            results[index] = _run_chunk(variant, options, seed, index, size)
            done += size
            if progress:
                progress(done)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {
                pool.submit(_run_chunk, variant, options, seed, index, size): index
                for index, size in enumerate(sizes)
            }
            for future in as_completed(futures):
                index = futures[future]
                results[index] = future.result()
                done += sizes[index]
                if progress:
                    progress(done)
    game = GAMES[variant]
    per_wager: list[Counter[float]] = [Counter() for _ in game.wagers]
    for index in range(len(sizes)):
        for nets, n in results[index].items():
            for counter, net in zip(per_wager, nets, strict=True):
                counter[net] += n
    return SimulationResult(
        variant=variant,
        hands=hands,
        seed=seed,
        description=game.describe(options),
        wagers=tuple(
            _wager_stats(wager, counts, hands)
            for wager, counts in zip(game.wagers, per_wager, strict=True)
        ),
    )
