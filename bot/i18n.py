"""Gettext catalogues (read from ``locales/*/LC_MESSAGES/*.po`` with Babel at start-up)
and a :class:`Translator` bound to one locale.

One update often renders for several audiences (the group in the chat's language, each hand in
its owner's), so rendering takes an explicit translator instead of an ambient context variable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from babel.messages.pofile import read_po

from bot.markup import Html, html_params

LOCALES: Final = ("ru", "en")
RU_LIKE: Final = frozenset({"ru", "uk", "be"})


def N_(msgid: str) -> str:
    """A msgid translated where it is shown, not where it is written (gettext's no-op marker):
    the catalogue tests find every ``N_("…")`` as they find ``tr("…")``."""
    return msgid


def locale_of(language_code: str | None, default: str = "en") -> str:
    """PRODUCT.md §11: ``ru``, ``uk``, ``be`` → ru; anything else → en; nothing → ``default``."""
    if not language_code:
        return default
    return "ru" if language_code.split("-")[0].lower() in RU_LIKE else "en"


@dataclass(frozen=True, slots=True)
class Translator:
    """``tr("Hello, {name}", name=…)``: the catalogue's text for the msgid, then ``format``
    (plain text: a toast, a button; :meth:`html` for a message's HTML)."""

    locale: str
    messages: Mapping[str, str] = field(repr=False)

    def __call__(self, msgid: str, /, **params: object) -> str:
        text = self.messages.get(msgid) or msgid
        return text.format(**params) if params else text

    def html(self, msgid: str, /, **params: object) -> Html:
        """The catalogue's text as Telegram HTML: every plain text parameter escaped (a name,
        a title), :class:`~bot.markup.Html` ones put in as they are."""
        text = self.messages.get(msgid) or msgid
        return Html(text.format(**html_params(params)) if params else text)

    def has(self, msgid: str) -> bool:
        return bool(self.messages.get(msgid))


@dataclass(frozen=True, slots=True)
class Catalogues:
    """Every locale's translator; ``tr(locale)`` falls back to the default locale."""

    translators: Mapping[str, Translator]
    default: str

    @classmethod
    def load(cls, root: Path, default: str = "ru") -> Catalogues:
        translators: dict[str, Translator] = {}
        for locale in LOCALES:
            folder = root / locale / "LC_MESSAGES"
            main = folder / "messages.po"
            if not main.is_file():
                raise RuntimeError(f"missing catalogue {main}")
            # messages.po, then one file per game family's own texts (kopilka.po, …)
            paths = [main, *sorted(p for p in folder.glob("*.po") if p != main)]
            messages: dict[str, str] = {}
            for path in paths:
                with path.open("rb") as fh:
                    catalog = read_po(fh, locale=locale)
                for m in catalog:
                    if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string:
                        if messages.get(str(m.id), m.string) != m.string:
                            raise RuntimeError(f"{path}: {m.id!r} is translated twice")
                        messages[str(m.id)] = str(m.string)
            translators[locale] = Translator(locale, messages)
        return cls(translators, default)

    def tr(self, locale: str | None) -> Translator:
        return self.translators.get(locale or self.default) or self.translators[self.default]
