"""The Pyramid games (Showdown, Casino Version, Standard, No-Surrender): the engine's arrangement
rules, the solver, and the settlement of points, declarations and the pot (RULINGS §1-§4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.arrangement import Arrangement, parse_arrangement, verify_arrangement
from engine.automatics import verify_automatic
from engine.cards import AnyCard
from engine.declaring import warm_up_declaring
from engine.errors import GameError, quote
from engine.evaluate import HandRules, HandValue, evaluate, evaluator
from engine.players import computer_setting, level_named
from engine.scoring import PlayedHands, matchup, net_matrix
from engine.settlement import Seat, settle
from engine.solver.model import load_model
from engine.solver.solve import solve
from engine.text import Text, tr
from engine.variants import Automatic, Variant
from tables.events import SeatResult, ShowdownSettled
from tables.review import Review
from tables.rules import SOLVER_BUDGET_S, FinishedGame, Played, PlayedSeat, RulesCard
from tables.rules.pyramid_pages import pyramid_card, slot_name
from tables.rules.pyramid_review import review_pyramid
from tables.setting import Setting, SlotShape, Suggestion, hands_of, strongest_first
from tables.spec import GameSpec


def automatic_named(name: str | None) -> Automatic | None:
    """The automatic a player declares by name (spaces or underscores), or None."""
    if not name:
        return None
    try:
        return Automatic(name.strip().lower().replace(" ", "_"))
    except ValueError:
        known = ", ".join(a.title for a in Automatic)
        raise GameError(
            tr(
                "There is no automatic called {name}; try one of: {known}.",
                name=quote(name),
                known=known,
            )
        ) from None


@dataclass(frozen=True, slots=True)
class PyramidRules:
    """A Pyramid game as a table plays it."""

    spec: GameSpec

    @property
    def variant(self) -> Variant:
        """The engine's variant of this game."""
        assert self.spec.variant is not None
        return self.spec.variant

    def shape(self) -> tuple[SlotShape, ...]:
        """Each slot's name and the sizes it may hold."""
        return tuple(SlotShape(slot.name, slot.allowed_sizes) for slot in self.variant.slots)

    def read(self, held: Sequence[AnyCard], text: str, automatic: str | None = None) -> Setting:
        """The arrangement typed (hands weakest first, or strongest first where the sizes say
        so; ``||`` discards), checked by the engine."""
        arrangement = parse_arrangement(text)
        hands = arrangement.hands
        if strongest_first(self.shape(), [len(hand) for hand in hands]):
            hands = hands[::-1]
        setting = Setting(
            hands_of(hands),
            tuple(arrangement.discards or ()),
            None if (chosen := automatic_named(automatic)) is None else chosen.value,
        )
        self.check(held, setting)
        return setting

    def check(self, held: Sequence[AnyCard], setting: Setting) -> None:
        """The engine's sentence if the setting is not legal for these cards."""
        self.values(held, setting)

    def values(self, held: Sequence[AnyCard], setting: Setting) -> tuple[HandValue, ...]:
        """The hands' values, checked (a regular arrangement, or the declared automatic)."""
        arrangement = Arrangement(setting.hands, setting.discards or None)
        chosen = automatic_named(setting.automatic)
        if chosen is None:
            return verify_arrangement(self.variant, held, arrangement)
        return verify_automatic(self.variant, held, arrangement, chosen)

    def has_automatics(self) -> bool:
        """Whether the variant has 17-card automatics (Standard and No-Surrender)."""
        return self.variant.automatics is not None

    def suggest(self, held: Sequence[AnyCard], *, budget_s: float | None) -> Suggestion:
        """The solver's best setting (an automatic when it pays more)."""
        solution = solve(self.variant, held, budget_s=budget_s)
        arrangement = solution.arrangement
        automatic = None if solution.automatic is None else solution.automatic.value
        setting = Setting(hands_of(arrangement.hands), tuple(arrangement.discards or ()), automatic)
        return Suggestion(setting, solution.ev, solution.exact)

    def computer_sets(self, level: str, held: Sequence[AnyCard]) -> Setting:
        """The level's way of setting the cards (engine/players.py), an automatic included."""
        arrangement, automatic = computer_setting(
            self.variant, level_named(level), held, budget_s=SOLVER_BUDGET_S
        )
        return Setting(
            hands_of(arrangement.hands),
            tuple(arrangement.discards or ()),
            None if automatic is None else automatic.value,
        )

    def labels(self, hands: Sequence[Sequence[AnyCard]]) -> tuple[str, ...]:
        """Each hand's name, with what each joker became."""
        rules = self.variant.hand_rules
        return tuple(evaluate(hand, rules).label for hand in hands)

    def review(
        self,
        event: ShowdownSettled,
        seat: SeatResult,
        held: tuple[AnyCard, ...],
        *,
        ante: int,
        solved: Suggestion | None = None,
    ) -> Review:
        """The solver's setting of the cards beside the player's, against the hands played."""
        return review_pyramid(self.spec, ante, event, seat, held, solved=solved)

    def called(self) -> Text:
        """ "the Pyramid games"."""
        return tr("the Pyramid games")

    def hand_rules(self) -> HandRules:
        """The variant's hand rules (a joker is wild, the wheel where the variant ranks it)."""
        return self.variant.hand_rules

    def slot_names(self) -> tuple[str, ...]:
        """The slots' names without " hand", capitalised: "Hand 1", "Front", "Back"."""
        names = (slot.name.removesuffix(" hand") for slot in self.variant.slots)
        return tuple(name[:1].upper() + name[1:] for name in names)

    def slot_words(self) -> tuple[Text, ...]:
        """The slots' names as texts: "Hand 1", "Front"."""
        return tuple(slot_name(slot.name) for slot in self.variant.slots)

    def scores_by_hand(self) -> bool:
        """Yes: each hand scores its points against the field (or the dealer)."""
        return True

    def card(self) -> RulesCard:
        """The game's rules card, written from its variant (tables/rules/pyramid_pages.py)."""
        return pyramid_card(self.spec)

    def warm_up(self) -> None:
        """The solver's field model, the evaluator's lookups and the declaring rule's tables."""
        load_model(self.variant)
        evaluator(self.variant.hand_rules)
        if self.variant.declarations:
            warm_up_declaring(self.variant)

    def play(self, game: FinishedGame) -> Played:
        """Declarations, points and the pot (or the Casino dealer's payouts), as transfers."""
        variant = self.spec.variant_at(game.ante)
        # A game that ended at a declaration (one player left) has no hands to compare.
        played = {s.user: self._played(s) for s in game.active if s.setting is not None}
        dealer: PlayedHands | None = None
        dealer_setting: Setting | None = None
        if variant.against_dealer and played:
            # RULINGS §3: the dealer sets its 9 cards with the solver.
            dealer_setting = self.suggest(game.dealer_cards, budget_s=SOLVER_BUDGET_S).setting
            dealer = PlayedHands("dealer", self.values(game.dealer_cards, dealer_setting))
        seats = [Seat(s.user, s.surrendered_at, played.get(s.user), game.ante) for s in game.seats]
        transfers = settle(variant, seats, dealer=game.button, dealer_hands=dealer)
        if dealer is not None:
            per_hand = {
                user: matchup(variant, mine, dealer).per_hand for user, mine in played.items()
            }
            # What the players lost at each position is what the dealer won there.
            dealt = tuple(-sum(points) for points in zip(*per_hand.values(), strict=True))
            return Played(
                transfers, per_hand=per_hand, dealer=dealer_setting, dealer_per_hand=dealt
            )
        if len(played) < 2:
            return Played(transfers)
        players = tuple(played)
        matrix = net_matrix(variant, list(played.values()))
        per_hand = {
            user: tuple(
                sum(points)
                for points in zip(
                    *(matchup(variant, hands, played[o]).per_hand for o in players if o != user),
                    strict=True,
                )
            )
            for user, hands in played.items()
        }
        return Played(transfers, matrix=matrix, matrix_players=players, per_hand=per_hand)

    def _played(self, seat: PlayedSeat) -> PlayedHands:
        assert seat.setting is not None
        values = self.values(seat.held, seat.setting)
        return PlayedHands(str(seat.user), values, automatic_named(seat.setting.automatic))
