"""Numbers are signed one way in every message and picture: a plus, or a true minus."""

from __future__ import annotations

from render.style import MINUS, signed


def test_whole_chips_carry_their_sign_and_thousands() -> None:
    assert signed(5) == "+5"
    assert signed(0) == "0"
    assert signed(-1234) == f"{MINUS}1,234"


def test_decimals_keep_the_same_signs() -> None:
    assert signed(2.5, 1) == "+2.5"
    assert signed(-3.456, 2) == f"{MINUS}3.46"
    assert signed(7, 1) == "+7.0"


def test_a_figure_that_rounds_to_nothing_has_no_sign() -> None:
    assert signed(-0.04, 1) == "0.0"
    assert signed(0.001, 2) == "0.00"
