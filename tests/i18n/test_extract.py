"""The templates hold every text the source marks, in the domain of the part that writes it, so
a text written without running locales/extract.py fails the catalogs' checks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import i18n
from tests.i18n.helpers import key, template


def extractor() -> ModuleType:
    path = i18n.LOCALES / "extract.py"
    spec = importlib.util.spec_from_file_location("locales_extract", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("locales_extract", module)
    spec.loader.exec_module(module)
    return module


def test_every_domains_template_holds_exactly_what_the_source_marks() -> None:
    made = extractor().templates()
    assert set(made) == set(i18n.DOMAINS)
    for domain, catalog in made.items():
        wanted = sorted((str(c), m) for c, m in {key(m) for m in catalog if m.id})
        kept = sorted((str(c), m) for c, m in {key(m) for m in template(domain) if m.id})
        assert kept == wanted, f"locales/{domain}.pot is behind the source: run locales/extract.py"


def test_the_extractor_reads_texts_and_plurals_and_assigns_them_by_path(tmp_path: Path) -> None:
    module = extractor()
    source = tmp_path / "sample.py"
    source.write_text(
        "from engine.text import tr, tr_plural\n"
        "A = tr('You have {chips} chips.', chips=3)\n"
        "B = tr_plural('{count} hand', '{count} hands', 2)\n"
        "C = tr(f'not {A}')  # an f-string is not a message id: never marked\n"
        "D = interaction.message.edit('not a text')\n",
        encoding="utf-8",
    )
    from babel.messages.extract import extract_from_file

    marked = extract_from_file("python", str(source), keywords=module.KEYWORDS)
    found = [ids for _, ids, _, _ in marked]
    assert found == ["You have {chips} chips.", ("{count} hand", "{count} hands")]
    assert module.domain_of("engine/cards.py") == "engine"
    assert module.domain_of("cogs/publisher.py") == "posts"
    assert module.domain_of("cogs/lobby.py") == "answers"
    assert module.domain_of("render/showdown.py") == "pictures"
