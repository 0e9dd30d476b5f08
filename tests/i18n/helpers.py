"""Checks of a catalog against the template, shared by the catalogs' tests and the commands'."""

from __future__ import annotations

import re
import string
from collections import Counter

from babel.messages.catalog import Catalog, Message

import i18n

#: printf-style placeholders, which a translation must keep as the source has them too.
PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdifr]")


def key(message: Message) -> tuple[str | None, str]:
    """A message's context and (singular) id."""
    ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
    return message.context, str(ids[0])


def forms(value: object) -> tuple[str, ...]:
    """A message's id or string as a tuple of its forms (one, or a plural's)."""
    raw = value if isinstance(value, tuple | list) else (value,)
    return tuple(str(form or "") for form in raw)


def placeholders(text: str) -> Counter[str]:
    """The placeholders of a text: ``{name}`` fields and ``%(name)s`` or ``%s`` ones."""
    found: Counter[str] = Counter()
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        found["<unbalanced braces>"] += 1
        parsed = []
    for _, field, _, _ in parsed:
        if field is not None:
            found["{" + field + "}"] += 1
    for match in PERCENT.finditer(text):
        found[match.group(0)] += 1
    return found


def untranslated(template: Catalog, catalog: Catalog) -> list[str]:
    """Every message id of the template with no translation (missing, empty or fuzzy) in the
    catalog, and every entry of the catalog the template does not have."""
    entries = {key(message): message for message in catalog if message.id}
    wanted = [key(message) for message in template if message.id]
    problems = []
    for context, msgid in wanted:
        message = entries.get((context, msgid))
        if message is None:
            problems.append(f"[{context}] {msgid!r}: missing")
        elif message.fuzzy or not all(forms(message.string)):
            problems.append(f"[{context}] {msgid!r}: not translated (empty or fuzzy)")
    problems += [f"[{c}] {m!r}: not in the template" for c, m in sorted(set(entries) - set(wanted))]
    return problems


def placeholder_mismatches(catalog: Catalog) -> list[str]:
    """Every translation whose placeholders differ from its source's (a plural's forms may each
    leave out ``{count}``, as English's singular does)."""
    problems = []
    for message in catalog:
        if not message.id or not all(forms(message.string)):
            continue
        sources = forms(message.id)
        expected = placeholders(sources[-1])
        for form in forms(message.string):
            found = placeholders(form)
            if len(sources) > 1:
                found["{count}"] = expected["{count}"]
            if found != expected:
                context, msgid = key(message)
                problems.append(
                    f"[{context}] {msgid!r}: {form!r} has {sorted(found.elements())},"
                    f" the source {sorted(expected.elements())}"
                )
    return problems


def template(domain: str | None = None) -> Catalog:
    """A domain's template (every message id of that part of the bot, in English), or with no
    domain every domain's ids in one catalog."""
    if domain is not None:
        return i18n.read_catalog(i18n.template_path(domain))
    merged = Catalog()
    for each in i18n.DOMAINS:
        for message in i18n.read_catalog(i18n.template_path(each)):
            if message.id:
                merged[message.id] = message
    return merged
