"""The rules cards in every language: each page of each game fits Discord's embed and button
limits in every language the bot speaks; `/rules` answers the asker in their own Discord
language (the answer is theirs alone), its buttons and its charts too; and the charts drawn in
German and Chinese show every cell whole (Chinese in the CJK fallback font)."""

from __future__ import annotations

from typing import Any

import pytest

import i18n
from cogs.rules import (
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    EMBED_TOTAL,
    NO_PAGE,
    localized_charts,
    page_embed,
    pages_view,
)
from render import fonts
from render.rules import chart_png
from tables.games import GAMES, rules_card
from tests.cogs.helpers import Scene, forged, labels, speak
from tests.render.helpers import Drawn

#: Discord's limits: a button's label, an embed's footer, a message's content.
LABEL, FOOTER, CONTENT = 80, 2048, 2000
LOCALES = [language.discord for language in (i18n.ENGLISH, *i18n.LANGUAGES)]


def embed_of(result: Any) -> Any:
    [embed] = result.response.embeds
    return embed


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_of_every_card_fits_discord_in_every_language(game: str, locale: str) -> None:
    card = rules_card(GAMES[game])
    for index in range(len(card.pages)):
        embed = page_embed(card, index, locale)
        assert embed.title is not None and len(embed.title) <= EMBED_TITLE
        assert embed.description is not None and len(embed.description) >= 40  # says something
        assert len(embed.description) <= EMBED_DESCRIPTION, (index, len(embed.description))
        assert embed.footer.text is not None and len(embed.footer.text) <= FOOTER
        assert len(embed) <= EMBED_TOTAL
        view = pages_view(game, card, index, locale)
        names = [child.item.label for child in view.children]  # type: ignore[attr-defined]
        assert all(1 <= len(name) <= LABEL for name in names)
        assert len(set(names)) == len(names)  # each page's button tells it apart
    refusal = i18n.localize(locale, NO_PAGE)
    address = i18n.localize(locale, i18n.tr("The full rules: {url}", url="x" * 1500))
    assert len(refusal) <= CONTENT and len(address) <= CONTENT


@pytest.mark.parametrize("locale", [language.discord for language in i18n.LANGUAGES])
def test_every_card_is_translated_to_the_last_word(locale: str) -> None:
    # A text no catalog holds would read in English inside the translated page.
    for spec in GAMES.values():
        card = rules_card(spec)
        for index in range(len(card.pages)):
            english = page_embed(card, index)
            translated = page_embed(card, index, locale)
            assert translated.description != english.description
            english_lines = set(str(english.description).splitlines()) - {""}
            # Only lines without words (the payout figures' signs and numbers) may repeat.
            same = english_lines & set(str(translated.description).splitlines())
            assert all(not any(c.isalpha() for c in line.replace("wins", "")) for line in same), (
                same
            )


@pytest.mark.parametrize("locale", ["de", "zh-CN", "fr"])
@pytest.mark.parametrize("game", ["showdown", "three-card", "paigow"])
def test_the_charts_draw_every_cell_whole_in_the_readers_language(
    drawn: list[Drawn], game: str, locale: str
) -> None:
    for page in rules_card(GAMES[game]).pages:
        if not page.charts:
            continue
        charts = localized_charts(page.charts, locale)
        drawn.clear()
        chart_png(charts)
        texts = {piece.text for piece in drawn}
        for chart in charts:
            cells = {cell for row in chart.rows for cell in row} | set(chart.headings)
            assert cells <= texts, cells - texts  # none cut with an ellipsis
            assert chart.title in texts
        if locale == "zh-CN":
            # Chinese is drawn, not boxes: every Chinese character by the CJK fallback face.
            chinese = [
                run
                for piece in drawn
                for run in fonts.runs(piece.text, piece.face)
                if any(_is_chinese(char) for char in run.text)
            ]
            assert chinese
            assert all(str(run.face.path).endswith(fonts.CJK) for run in chinese)


def _is_chinese(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef"


async def test_rules_reads_in_german_for_a_german_discord(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = scene.members[:2]
    speak(monkeypatch, {ann.id: "de"})
    shown = await ann.slash(scene.channel, "rules", game="showdown")
    assert shown.ephemeral  # the asker's alone: their own language
    embed = embed_of(shown)
    assert embed.title == "Showdown-Version: Ablauf einer Partie"
    assert embed.description.splitlines()[0] == (
        "2 bis 6 Spieler, jeder gegen alle anderen. Der Schlitten: 3 Decks und 4 Joker "
        "(160 Karten)."
    )
    assert (
        "- Ansage 1: **weiterspielen** (10 weitere Chips in den Pot zahlen und 3 weitere Karten "
        "bekommen) oder **aufgeben**." in embed.description
    )
    assert embed.footer.text == "Seite 1 von 5"
    assert labels(shown.response.message) == [
        "Ablauf einer Partie",
        "Hände legen",
        "Was schlägt was",
        "Wertung",
        "Aufgeben",
    ]
    scoring = await ann.click(shown.response.message, label="Wertung")
    assert embed_of(scoring).title == "Showdown-Version: Wertung"
    assert "- Jedes Spielerpaar rechnet sofort ab: 1 Chip pro Punkt." in (
        embed_of(scoring).description.splitlines()
    )
    assert scoring.response.attachments  # the chart, drawn in German
    # Another member, on an English Discord, reads the same card in English.
    english = await bob.slash(scene.channel, "rules", game="showdown")
    assert embed_of(english).title == "Showdown Version: How a game goes"
    assert labels(english.response.message)[-1] == "Surrender"


async def test_rules_reads_in_chinese_for_a_chinese_discord(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: "zh-CN"})
    shown = await ann.slash(scene.channel, "rules", game="three-card")
    assert shown.ephemeral
    embed = embed_of(shown)
    assert embed.title == "三张牌桌游戏：一局的流程"
    assert embed.footer.text == "第1/5页"
    assert "- 你和庄家各拿3张牌。" in embed.description.splitlines()
    assert labels(shown.response.message) == [
        "一局的流程",
        "牌型大小",
        "主注",
        "奖励注",
        "庄家摆法",
    ]
    way = await ann.click(shown.response.message, label="庄家摆法")
    assert "J对需要7或以上、Q对需要8、K对需要9、A对需要10" in embed_of(way).description
    bonuses = await ann.click(way.response.message, label="奖励注")
    assert embed_of(bonuses).title == "三张牌桌游戏：奖励注"
    assert bonuses.response.attachments  # the pay tables, drawn in Chinese


async def test_a_gone_page_is_refused_in_the_readers_language(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = scene.members[0]
    speak(monkeypatch, {ann.id: "es-ES"})
    said = await forged(scene, ann, "pp:rulespage:showdown:99")
    assert said == "Esa página de las reglas ya no existe; vuelve a usar `/reglas`."
