"""Gettext catalogues (read from ``locales/*/LC_MESSAGES/*.po`` with Babel at start-up)
and a :class:`Translator` bound to one locale.

One update often renders for several audiences (the group in the chat's language, each hand in
its owner's), so rendering takes an explicit translator instead of an ambient context variable.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from babel.messages.pofile import read_po

from bot.markup import Html, html_params

LOCALES: Final = ("ru", "en")
RU_LIKE: Final = frozenset({"ru", "uk", "be"})


def bundled_locales() -> Path:
    """The catalogues that come with the package: ``bot/locales`` — in a checkout a link to the
    repository's one ``locales/``, in an installed wheel its copy (package data) —, or the
    checkout's ``locales/`` itself where the link is no folder (a clone made without symlinks).
    ``BOT_LOCALES`` points elsewhere (``bot.config``, ``python -m bot play``)."""
    here = Path(__file__).resolve().parent
    for root in (here / "locales", here.parent / "locales"):
        if (root / "ru" / "LC_MESSAGES" / "messages.po").is_file():
            return root
    return here / "locales"  # missing: Catalogues.load says which file


def N_(msgid: str) -> str:
    """A msgid translated where it is shown, not where it is written (gettext's no-op marker):
    the catalogue tests find every ``N_("…")`` as they find ``tr("…")``."""
    return msgid


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


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
    # plural entries: the singular msgid → its forms, and which form a number takes
    plurals: Mapping[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    plural_of: Callable[[int], int] = field(default=_english_plural, repr=False)

    def __call__(self, msgid: str, /, **params: object) -> str:
        text = self.messages.get(msgid) or msgid
        return text.format(**params) if params else text

    def _form(self, msgid: str, plural: str, count: int) -> str:
        forms = self.plurals.get(msgid)
        if forms:
            index = self.plural_of(abs(count))
            if 0 <= index < len(forms) and forms[index]:
                return forms[index]
        return msgid if abs(count) == 1 else plural

    def n(self, msgid: str, plural: str, count: int, /, **params: object) -> str:
        """``tr.n("{n} card", "{n} cards", 4)`` → «4 карты»: the form the language gives the
        number (gettext's plural forms, from each catalogue's ``Plural-Forms``), with ``n``."""
        return self._form(msgid, plural, count).format(n=count, **params)

    def n_html(self, msgid: str, plural: str, count: int, /, **params: object) -> Html:
        """:meth:`n` as Telegram HTML: plain text parameters escaped, as :meth:`html`."""
        form = self._form(msgid, plural, count)
        return Html(form.format(n=count, **html_params(params)))

    def html(self, msgid: str, /, **params: object) -> Html:
        """The catalogue's text as Telegram HTML: every plain text parameter escaped (a name,
        a title), :class:`~bot.markup.Html` ones put in as they are."""
        text = self.messages.get(msgid) or msgid
        return Html(text.format(**html_params(params)) if params else text)

    def has(self, msgid: str) -> bool:
        return bool(self.messages.get(msgid)) or all(self.plurals.get(msgid, ("",)))


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
            plurals: dict[str, tuple[str, ...]] = {}
            plural_of: Callable[[int], int] = _english_plural
            for path in paths:
                with path.open("rb") as fh:
                    catalog = read_po(fh, locale=locale)
                if path == main:
                    plural_of = gettext.c2py(catalog.plural_expr)
                for m in catalog:
                    if isinstance(m.id, tuple | list) and isinstance(m.string, tuple | list):
                        forms = tuple(str(f) for f in m.string)
                        if plurals.get(str(m.id[0]), forms) != forms:
                            raise RuntimeError(f"{path}: {m.id[0]!r} is translated twice")
                        plurals[str(m.id[0])] = forms
                        continue
                    if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string:
                        if messages.get(str(m.id), m.string) != m.string:
                            raise RuntimeError(f"{path}: {m.id!r} is translated twice")
                        messages[str(m.id)] = str(m.string)
            translators[locale] = Translator(locale, messages, plurals, plural_of)
        return cls(translators, default)

    def tr(self, locale: str | None) -> Translator:
        return self.translators.get(locale or self.default) or self.translators[self.default]
