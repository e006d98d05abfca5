"""💡's answer in words: the strongest computer's few best choices for the asker's decision,
each with what it is expected to win or lose and the facts that decided it
(:func:`engine.players.advice.advise`). Pure: an advice in, a few lines of Telegram HTML out,
shown under the asker's own hand (never to anyone else)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from bot.i18n import N_, Translator
from bot.markup import Html
from bot.render.action_words import words_of
from engine.players.advice import Advice, Fact

FACT_WORDS: Final[Mapping[Fact, str]] = MappingProxyType(
    {
        Fact.WEAK_HAND: N_("few strong cards"),
        Fact.STRONG_HAND: N_("enough strong cards"),
        Fact.KEEPS_PRIVILEGED: N_("keeps the privileged card"),
        Fact.KEEPS_TRUMPS: N_("keeps your trumps"),
        Fact.FOLLOWS_SUIT: N_("follows suit"),
        Fact.TRUMPS: N_("a trump"),
        Fact.LOWEST_TRUMP: N_("your lowest trump"),
        Fact.NO_TRUMP_LEFT: N_("you hold no trump"),
        Fact.HIGHEST_OF_SUIT: N_("your highest of the suit"),
        Fact.LOWEST_OF_SUIT: N_("your lowest of the suit"),
    }
)
"""Each fact a hint may state, in the reader's words."""


def signed(value: float) -> str:
    """A mean to one decimal with its sign, a true minus (``+0.4``, ``−2.1``, ``0.0``)."""
    text = f"{abs(value):.1f}"
    if text == "0.0":
        return text
    return ("+" if value > 0 else "−") + text


def hint_html(advice: Advice, tr: Translator) -> Html:
    """The hint's lines: a head, then one line per choice, best first."""
    if not advice.samples:  # one candidate (the only legal one, or the rule's): no figures
        return tr.html(
            "💡 The strongest computer would choose: {move}.", move=words_of(advice.best.action, tr)
        )
    lines = [tr.html("💡 <b>The strongest computer would choose:</b>")]
    for choice in advice.choices:
        move = words_of(choice.action, tr)
        value = signed(choice.value)
        if choice.facts:
            why = ", ".join(tr(FACT_WORDS[f]) for f in choice.facts)
            lines.append(
                tr.html("• {move} — {value} on average: {why}", move=move, value=value, why=why)
            )
        else:
            lines.append(tr.html("• {move} — {value} on average", move=move, value=value))
    return Html("\n".join(lines))


__all__ = ["FACT_WORDS", "hint_html", "signed"]
