"""Draw the sample pictures in docs/ from a seeded deal: ``python -m render.samples [folder]``."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.cards import JOKER, AnyCard, Shoe, sort_cards
from engine.evaluate import evaluator
from engine.scoring import PlayedHands, matchup, net_matrix
from engine.settlement import POT, Seat, balances, settle
from engine.solver.solve import solve
from engine.variants import SHOWDOWN
from render.hands import hand_png
from render.showdown import ShowdownRow, showdown_png

NAMES = ("Ada", "Bastien", "Chiara", "Dmitri", "Eun-ji", "Farah")
DOCS = Path(__file__).resolve().parent.parent / "docs"


@dataclass(frozen=True, slots=True)
class SampleShowdown:
    """Everything ``showdown_png`` takes for one seeded Showdown Version table."""

    rows: tuple[ShowdownRow, ...]
    matrix: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    footer: tuple[str, ...]
    title: str


def deal_showdown(seed: int, players: int = 6) -> tuple[tuple[AnyCard, ...], ...]:
    """Each player's 25 cards: the deal and both declarations' draws, everyone playing on."""
    shoe = Shoe(decks=SHOWDOWN.decks, jokers=SHOWDOWN.jokers, rng=random.Random(seed))
    held = [list(shoe.deal(SHOWDOWN.deal)) for _ in range(players)]
    for declaration in SHOWDOWN.declarations:
        for cards in held:
            cards.extend(shoe.deal(declaration.draw))
    return tuple(sort_cards(cards) for cards in held)


def sample_showdown(seed: int = 7, *, budget_s: float = 0.3) -> SampleShowdown:
    """A six-player Showdown Version table, each holding set by the solver, scored and settled."""
    names = NAMES[: len(NAMES)]
    holdings = deal_showdown(seed, len(names))
    rate = evaluator(SHOWDOWN.hand_rules)
    played = []
    for name, held in zip(names, holdings, strict=True):
        solution = solve(SHOWDOWN, held, budget_s=budget_s)
        values = tuple(rate.evaluate(hand) for hand in solution.arrangement.hands)
        played.append(PlayedHands(name, values))
    matrix = net_matrix(SHOWDOWN, played)
    transfers = settle(SHOWDOWN, [Seat(p.name, None, p) for p in played], dealer=0)
    chips = balances(transfers)
    winners = {t.payee for t in transfers if t.payer == POT}
    pot = sum(t.amount for t in transfers if t.payee == POT)
    points = sum(t.amount for t in transfers if t.reason.startswith("points"))
    rows = []
    for index, mine in enumerate(played):
        per_hand = [0] * len(SHOWDOWN.slots)
        for theirs in played:
            if theirs is not mine:
                for position, value in enumerate(matchup(SHOWDOWN, mine, theirs).per_hand):
                    per_hand[position] += value
        notes = (["dealer"] if index == 0 else []) + (
            ["pot winner"] if mine.name in winners else []
        )
        rows.append(
            ShowdownRow(
                name=mine.name,
                hands=tuple(value.cards for value in mine.hands),
                labels=tuple(value.label for value in mine.hands),
                per_hand=tuple(per_hand),
                net=chips.get(mine.name, 0),
                note=" · ".join(notes),
            )
        )
    winner_text = " and ".join(sorted(winners)) or "nobody"
    footer = (
        f"Pot: {pot} chips (antes and stakes) to {winner_text}, the highest net score.",
        f"Points: {points} chips changed hands between players, 1 chip a point.",
    )
    return SampleShowdown(
        tuple(rows), matrix, names, footer, f"Showdown · {SHOWDOWN.title} · seed {seed}"
    )


def sample_hand(seed: int = 7) -> tuple[AnyCard, ...]:
    """The 20 dealt cards of the first seat of the same deal holding a joker (to show one)."""
    shoe = Shoe(decks=SHOWDOWN.decks, jokers=SHOWDOWN.jokers, rng=random.Random(seed))
    dealt = [shoe.deal(SHOWDOWN.deal) for _ in NAMES]
    return sort_cards(next((cards for cards in dealt if JOKER in cards), dealt[0]))


def main(argv: list[str]) -> int:
    """Write sample-showdown.png and sample-hand.png into the folder given (docs/ by default)."""
    folder = Path(argv[0]) if argv else DOCS
    folder.mkdir(parents=True, exist_ok=True)
    sample = sample_showdown()
    showdown = showdown_png(
        sample.rows,
        title=sample.title,
        matrix=sample.matrix,
        matrix_names=sample.names,
        footer=sample.footer,
    )
    hand = hand_png(
        sample_hand(),
        title="Your hand · 20 cards",
        subtitle="Showdown Version · #pyramid on Sample Server · declaration 1: play or surrender?",
    )
    for name, data in (("sample-showdown.png", showdown), ("sample-hand.png", hand)):
        (folder / name).write_bytes(data)
        print(f"{folder / name}: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
