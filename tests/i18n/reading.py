"""Whether a text a member read is in their language: what is left of it once every phrase of
that language's catalogs is taken out, with what no language translates (mentions, numbers,
cards as typed, names), must hold no word.

A sentence the bot wrote in English, or glued from translated pieces with English words between
them, leaves those English words behind; a text in the right language leaves nothing.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterable
from typing import TYPE_CHECKING

import i18n

if TYPE_CHECKING:
    from tests.render.helpers import Drawn

#: Discord's markup, which no language translates: mentions, timestamps, custom emoji, links.
MARKUP = re.compile(r"<[@#][!&]?\d+>|<t:\d+(?::\w)?>|<a?:\w+:\d+>|https?://\S+")
#: What no language translates either, taken out once the phrases are (a phrase may hold a
#: number: "Standard (17 cartes)"): cards as typed, numbers (their grouping inside them, never
#: the punctuation after them: "partie 1, avec"), with their sign.
NEUTRAL = re.compile(
    r"\b(?:10|[2-9TJQKA])[shdcSHDC]\b|[+\u2212-]?\b\d(?:[\d.,\u202f\u00a0 ]*\d)?\b"
)
#: A word: Latin letters (two or more) or a single Han character.
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]{2,}|[\u4e00-\u9fff]")


def pieces(text: str) -> list[str]:
    """The literal pieces of a translation, between its placeholders."""
    found = []
    for literal, _, _, _ in string.Formatter().parse(text):
        found.extend(part.strip() for part in re.split(r"\n+", literal))
    return [piece for piece in found if piece]


@functools.cache
def phrases(locale: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Every phrase of a language's catalogs, longest first, each with its pattern: a phrase
    that starts or ends with a letter matches only at a word's edge."""
    language = i18n.language_of(locale)
    texts = i18n.translations(language).texts.values()
    found = {piece for forms in texts for form in forms for piece in pieces(form)}
    if language == i18n.ENGLISH:
        found = set()
    patterns = []
    for phrase in sorted(found, key=lambda phrase: (-len(phrase), phrase)):
        pattern = re.escape(phrase)
        if phrase[0].isalpha() and phrase[0].isascii():
            pattern = r"(?<![A-Za-zÀ-ÿ])" + pattern
        if phrase[-1].isalpha() and phrase[-1].isascii():
            pattern += r"(?![A-Za-zÀ-ÿ])"
        patterns.append((phrase, re.compile(pattern)))
    return tuple(patterns)


def foreign_words(text: str, locale: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The words of ``text`` that are not of the language of ``locale``: none for a text the
    bot wrote in that language. ``allowed``: names and other words no language translates.

    The longest phrases are taken out first, wherever they stand: a shorter one that overlaps
    them ("Chips an") must not break them ("an den anderen Spieler, falls er weiterspielt")."""
    left = MARKUP.sub(" ", text)
    for phrase, pattern in phrases(locale):
        if phrase in left:
            left = pattern.sub(" ", left)
    left = NEUTRAL.sub(" ", left)
    # A word left alone where two phrases overlapped ("… 5 fichas y da 2 cartas"): the
    # language's own if its catalogs write it and English never does.
    own = own_words(locale)
    return [
        word
        for word in WORD.findall(left)
        if word.lower() not in allowed and word.lower() not in own
    ]


@functools.cache
def own_words(locale: str) -> frozenset[str]:
    """The words a language's catalogs write that no English text does."""
    language = i18n.language_of(locale)
    if language == i18n.ENGLISH:
        return frozenset()
    found = i18n.translations(language).texts
    theirs = {
        word.lower()
        for forms in found.values()
        for form in forms
        for piece in pieces(form)
        for word in WORD.findall(piece)
    }
    english = {
        word.lower()
        for _, msgid in found
        for piece in pieces(msgid)
        for word in WORD.findall(piece)
    }
    return frozenset(theirs - english)


def pictured(drawn: Iterable[Drawn], locale: str) -> str:
    """Every word the pictures laid since the list was last emptied: a picture lays a line in
    pieces (a wrapped name, a run of digits in their own face), joined again as the language
    writes (a Chinese word cut by a wrap, or a digit before a Chinese character, without a
    space). A line cut short ("Straight Flush" as "Straight…") is left out if it begins a text
    of the language (what it would have read); else its last word is left out."""
    text = ""
    for piece in (cut(piece.text, locale) for piece in drawn):
        glued = locale == "zh-CN" and text and HAN.match(piece) and HAN_OR_DIGIT.search(text)
        text += piece if glued or not text else " " + piece
    return text


def cut(piece: str, locale: str) -> str:
    """A piece of a picture, as `pictured` reads it (a cut one without what was cut)."""
    if not piece.endswith("…"):
        return piece
    begun = piece.removesuffix("…")
    texts = i18n.translations(i18n.language_of(locale)).texts.values()
    if any(form.startswith(begun) for forms in texts for form in forms):
        return ""
    return CUT.sub("", piece)


#: The last word of a line cut short.
CUT = re.compile(r"\S*…$")
#: A Chinese character or full-width punctuation ("，"), and one of those or a digit.
HAN = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")
HAN_OR_DIGIT = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef\d]$")
