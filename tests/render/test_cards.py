"""Card faces: every card and the joker drawn once, distinct, in the right colours and font."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.cards import JOKER, Card, Rank, Suit, standard_deck
from render import card_back, card_image
from render.cards import CARD_HEIGHT, CARD_WIDTH
from render.style import BOLD_FONT, FONT_DIR, MINUS, REGULAR_FONT, font


def test_every_card_is_an_rgba_card_with_transparent_corners() -> None:
    for card in (*standard_deck(), JOKER):
        image = card_image(card)
        assert image.mode == "RGBA"
        assert image.size == (CARD_WIDTH, CARD_HEIGHT)
        assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]
        assert image.getpixel((CARD_WIDTH // 2, CARD_HEIGHT // 2))[3] == 255  # type: ignore[index]


def test_every_card_of_the_deck_the_joker_and_the_back_draw_distinct_images() -> None:
    pictures = [card_image(card).tobytes() for card in (*standard_deck(), JOKER)]
    pictures.append(card_back().tobytes())
    assert len(set(pictures)) == 54


def test_card_images_are_cached_per_card_code() -> None:
    ace = Card(Rank.ACE, Suit.SPADES)
    assert card_image(ace) is card_image(Card(Rank.ACE, Suit.SPADES))
    assert card_image(JOKER) is card_image(JOKER)
    assert card_back() is card_back()


def _red_pixels(card: Card) -> int:
    rgb = card_image(card).convert("RGB")
    return sum(1 for r, g, b in rgb.get_flattened_data() if r > 150 and g < 90 and b < 100)  # type: ignore[misc]


def test_hearts_and_diamonds_are_red_spades_and_clubs_are_not() -> None:
    for rank in (Rank.TWO, Rank.TEN, Rank.QUEEN, Rank.ACE):
        assert _red_pixels(Card(rank, Suit.HEARTS)) > 200
        assert _red_pixels(Card(rank, Suit.DIAMONDS)) > 200
        assert _red_pixels(Card(rank, Suit.SPADES)) == 0
        assert _red_pixels(Card(rank, Suit.CLUBS)) == 0


def _drawn(text: str) -> bytes:
    canvas = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(canvas).text((8, 8), text, font=font(40), fill=255)
    return canvas.tobytes()


def test_the_bundled_font_draws_suits_arrows_and_the_joker_star() -> None:
    missing = _drawn("\U000f0000")  # a private-use code point: the font's "missing" box
    for symbol in "♠♥♦♣→★♚♛♞…" + MINUS:
        left, top, right, bottom = font(40).getbbox(symbol)
        assert right > left and bottom > top, symbol
        assert _drawn(symbol) != missing, symbol


def test_the_font_ships_with_its_licence_beside_it() -> None:
    assert REGULAR_FONT.is_file() and BOLD_FONT.is_file()
    licence = (FONT_DIR / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence
