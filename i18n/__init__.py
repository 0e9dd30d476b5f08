"""The bot's languages: gettext catalogs read with Babel, sentences translated with a fallback to
English, plurals by each language's own rule, and numbers written as each language writes them.

The English text is the message id (gettext style), with a context saying where it stands
(`CONTEXTS`), so a word that is a command's name in one place and a choice in another may be
translated differently. Placeholders are ``{name}`` fields, filled with `str.format`.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from engine.text import Names, PlainNames, Term, Text, Where, Who, english, tr, tr_plural

__all__ = ["Text", "Where", "Who", "localize", "tr", "tr_plural"]

#: Where the catalogs are: one template per domain, ``<domain>.pot`` (every message id of a part
#: of the bot), and one ``<language>/LC_MESSAGES/<domain>.po`` per language and domain.
LOCALES = Path(__file__).resolve().parent.parent / "locales"
#: The slash commands' texts, /help and what is marked with `message`.
DOMAIN = "messages"
#: Every domain, and the source each one's texts come from (locales/extract.py reads them): a
#: part of the bot per catalog, so that the files stay readable and translators (and changes to
#: different parts) do not meet in one file. A module belongs to the first domain whose paths
#: hold it; ``messages`` takes the commands' texts and whatever no other domain holds.
DOMAINS: dict[str, tuple[str, ...]] = {
    "engine": ("engine/",),
    "storage": ("storage/",),
    "rules": ("tables/rules/", "cogs/rules.py", "render/rules.py"),
    "tables": ("tables/",),
    "posts": ("cogs/publisher.py", "cogs/showdown.py", "cogs/board.py", "cogs/boards.py"),
    "pictures": ("render/", "cogs/pictures.py"),
    "answers": ("cogs/",),
    DOMAIN: ("bot.py", "i18n/"),
}


@dataclass(frozen=True, slots=True)
class Language:
    """A language the bot speaks: Discord's locale code, its catalog's name, and its own name."""

    #: As Discord writes it (`discord.Locale`'s value): "pt-BR".
    discord: str
    #: As gettext and Babel write it, the catalog's folder: "pt_BR".
    catalog: str
    #: The language's name in itself.
    name: str


#: English is the source: the message ids are its text, and it has no catalog.
ENGLISH = Language("en-US", "en_US", "English")
#: Every language with a catalog. A new language is a catalog and one line here.
LANGUAGES: tuple[Language, ...] = (
    Language("es-ES", "es_ES", "Español"),
    Language("pt-BR", "pt_BR", "Português do Brasil"),
    Language("de", "de", "Deutsch"),
    Language("fr", "fr", "Français"),
    Language("zh-CN", "zh_CN", "中文"),
)
_BY_DISCORD = {language.discord: language for language in (ENGLISH, *LANGUAGES)}
#: Discord locales read in another's catalog: Latin American Spanish reads Spain's (the bot's
#: texts use neither region's idioms). Any other locale without a catalog reads English.
ALIASES: dict[str, str] = {"es-419": "es-ES"}

#: The contexts of the slash commands' texts (``msgctxt`` in the catalogs).
COMMAND = "command"
OPTION = "option"
DESCRIPTION = "description"
CHOICE = "choice"
CONTEXTS = (COMMAND, OPTION, DESCRIPTION, CHOICE)


def language_of(locale: str) -> Language:
    """The language for a Discord locale code ("de", "zh-CN", "es-419" read as "es-ES");
    English for any other."""
    return _BY_DISCORD.get(ALIASES.get(locale, locale), ENGLISH)


def channel_locale(override: str | None, server_locale: str) -> str:
    """The locale of a server's channel posts: the language chosen with ``/settings language``,
    else the server's preferred locale (Discord's Community setting)."""
    return override if override is not None else server_locale


#: Every message id marked with `message` (not the commands' own texts, which the tree hands
#: the translator): locales/extract.py writes them into the template.
MESSAGES: dict[str, None] = {}


def message(msgid: str) -> str:
    """Mark ``msgid`` as a text to translate (gettext's ``N_``) and return it unchanged."""
    MESSAGES.setdefault(msgid)
    return msgid


def catalog_path(language: Language, domain: str = DOMAIN) -> Path:
    """Where a language's catalog of a domain is kept."""
    return LOCALES / language.catalog / "LC_MESSAGES" / f"{domain}.po"


def template_path(domain: str = DOMAIN) -> Path:
    """Where a domain's template is kept."""
    return LOCALES / f"{domain}.pot"


def read_catalog(path: Path, language: Language | None = None) -> Catalog:
    """A catalog (or the template) as Babel reads it."""
    with path.open("rb") as file:
        return read_po(file, locale=None if language is None else language.catalog)


class Translations:
    """One language's translated texts, by context and message id, and its plural rule."""

    def __init__(self, *catalogs: Catalog) -> None:
        self.texts: dict[tuple[str | None, str], tuple[str, ...]] = {}
        #: Which plural form a count takes (gettext's ``Plural-Forms``); English's by default.
        self.form: Callable[[int], int] = gettext.c2py("(n != 1)")
        for catalog in catalogs:
            self.add(catalog)

    def add(self, catalog: Catalog) -> None:
        """Take in a catalog's translated texts (a domain of the language)."""
        self.form = gettext.c2py(catalog.plural_expr)
        for message in catalog:
            ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
            raw = message.string if isinstance(message.string, tuple | list) else (message.string,)
            forms = tuple(str(form or "") for form in raw)
            # A fuzzy or empty entry reads in English until a translator confirms it.
            if ids[0] and not message.fuzzy and all(forms):
                self.texts[(message.context, str(ids[0]))] = forms

    def has(self, msgid: str, context: str | None = None) -> bool:
        """Whether ``msgid`` has a translation here."""
        return (context, msgid) in self.texts

    def text(self, msgid: str, context: str | None = None) -> str:
        """``msgid`` translated, or ``msgid`` itself."""
        return self.texts.get((context, msgid), (msgid,))[0]

    def plural(self, singular: str, plural: str, count: int, context: str | None = None) -> str:
        """The form for ``count``, or the English one."""
        forms = self.texts.get((context, singular))
        if forms is None:
            return singular if count == 1 else plural
        return forms[min(self.form(count), len(forms) - 1)]


@functools.cache
def translations(language: Language) -> Translations:
    """A language's translations, read once; English reads the message ids themselves."""
    if language == ENGLISH:
        return Translations()
    return Translations(
        *(
            read_catalog(catalog_path(language, domain), language)
            for domain in DOMAINS
            if catalog_path(language, domain).is_file()
        )
    )


def translate(locale: str, msgid: str, *, context: str | None = None, **params: object) -> str:
    """``msgid`` in the language of ``locale`` (English where it has no translation), with its
    ``{placeholders}`` filled from ``params``."""
    text = translations(language_of(locale)).text(msgid, context)
    return fill(locale, text, params)


def translate_plural(
    locale: str,
    singular: str,
    plural: str,
    count: int,
    *,
    context: str | None = None,
    **params: object,
) -> str:
    """The form for ``count`` of a sentence with a plural (gettext's ``ngettext``), by the
    language's own rule; ``{count}`` is the number as the language writes it."""
    text = translations(language_of(locale)).plural(singular, plural, count, context)
    return fill(locale, text, {"count": count, **params})


def fill(locale: str, text: str, params: Mapping[str, object]) -> str:
    """A translated text with its placeholders filled; numbers as the language writes them."""
    if not params:
        return text
    shown = {
        name: format_number(locale, value)
        if isinstance(value, int | float) and not isinstance(value, bool)
        else value
        for name, value in params.items()
    }
    return text.format(**shown)


def localize(locale: str, value: object, names: Names | None = None) -> str:
    """Anything a text may hold in the language of ``locale``: a `Text` translated (English
    where its catalog lacks it) with its values localized in turn, a player or a channel named
    by ``names`` (plainly by default), a number as the language writes it, a tuple of values as
    the language lists them ("a, b y c"), anything else as ``str()``."""
    language = language_of(locale)
    names = names or PlainNames()
    if language == ENGLISH:
        return english(value, names)
    if isinstance(value, Text):
        found = translations(language)
        if value.plural is None:
            source = found.text(value.msgid)
        else:
            source = found.plural(value.msgid, value.plural, value.count or 0)
        params = value.params
        if not params:
            return source
        return source.format(**{key: localize(locale, item, names) for key, item in params.items()})
    if isinstance(value, Who):
        return names.user(value.user_id)
    if isinstance(value, Where):
        return names.channel(value.channel_id)
    if isinstance(value, Term):
        return translations(language).text(value.name, value.context)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_number(locale, value)
    if isinstance(value, tuple):
        items = [localize(locale, item, names) for item in value]
        return str(format_list(items, locale=language.catalog)) if items else ""
    return str(value)


def format_number(locale: str, number: float) -> str:
    """A number as the language of ``locale`` writes it: 1,234 / 1.234 / 1 234."""
    return str(format_decimal(number, locale=language_of(locale).catalog))
