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
from engine.players.advice import Advice, Choice, Fact, Unit, ValueParts

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
        Fact.ACE_OF_SPADES: N_("the A♠ beats any card"),
        Fact.ACE_DOUBLES: N_("the suit's ace: a trick it takes counts double"),
        Fact.TAKES_FOR_NOW: N_("the highest in the trick so far"),
        Fact.STAYS_UNDER: N_("stays under the trick's highest card"),
        Fact.DEAR_TRICK: N_("a dear suit (♥ 4, ♦ 3)"),
        Fact.CHEAP_TRICK: N_("a cheap suit (♣ 2, ♠ 1)"),
        Fact.LAST_CARD: N_("your last card"),
        Fact.NO_CARD_OF_SUIT: N_("you hold none of the suit led"),
        Fact.PASS_FINE: N_("you hold the suit: a pass costs a fine"),
        Fact.TAKES_STAKE: N_("takes the money on a lenturlu card"),
        Fact.WINS_DEAL: N_("wins the deal"),
        Fact.CLOSES_PILE: N_("a king closes the pile: you lead again"),
        Fact.LONGEST_RUN: N_("your longest run"),
        Fact.CANNOT_FOLLOW: N_("you can't go on from the pile"),
        Fact.TAKES_KONCHINKA: N_("takes a konchinka (2♣ or 10♦)"),
        Fact.TAKES_CLUBS: N_("takes clubs"),
        Fact.TAKES_SEVERAL: N_("several cards at once"),
        Fact.CLEARS_TABLE: N_("clears the table"),
        Fact.NOTHING_TO_TAKE: N_("nothing to take"),
        Fact.GIVES_LITTLE: N_("neither a club nor a konchinka"),
        Fact.COURT_CARD: N_("only a card of its rank takes it"),
    }
)
"""Each fact a hint may state, in the reader's words."""


def signed(value: float) -> str:
    """A mean to one decimal with its sign, a true minus (``+0.4``, ``−2.1``, ``0.0``)."""
    text = f"{abs(value):.1f}"
    if text == "0.0":
        return text
    return ("+" if value > 0 else "−") + text


def amount(value: float, unit: Unit, tr: Translator) -> str:
    """A mean as the hint says it: signed, one decimal (none when it is whole), with its unit
    in the number's plural form — the points written off the count (the trick family), money
    in kopecks (Копилка, Лентюрлю), deal points over the others (Кончинка); a fraction takes
    the form of 2 in both languages («2.5 копейки», "2.5 kopecks"). Шутиха's pulka worth is
    the bare number."""
    text = signed(value)
    if unit is Unit.PULKA:
        return text
    whole = text.endswith(".0")
    if whole:
        text = text[:-2]
    count = abs(round(value)) if whole else 2
    if unit is Unit.COUNT:
        return tr.n(
            "{value} point off the count", "{value} points off the count", count, value=text
        )
    if unit is Unit.POINTS:
        return tr.n(
            "{value} point over the others", "{value} points over the others", count, value=text
        )
    return tr.n("{value} kopeck", "{value} kopecks", count, value=text)


def chances(parts: ValueParts, unit: Unit, tr: Translator) -> str:
    """How often the choice wins (loses) what its search prices apart, in whole per cent (the
    trick family's zero, Кончинка's game); empty when under half a per cent."""
    won, lost = round(100 * parts.won), round(100 * parts.lost)
    said = []
    if won:
        if unit is Unit.COUNT:
            said.append(tr("{chance}% to reach zero", chance=won))
        else:
            said.append(tr("{chance}% to win the game", chance=won))
    if lost:
        said.append(tr("{chance}% to lose the game", chance=lost))
    return ", ".join(said)


def _line(choice: Choice, unit: Unit, tr: Translator) -> Html:
    """One choice: its move, its mean (the deal's own figure, and apart how often the pulka or
    the game is won or lost), and why."""
    move = words_of(choice.action, tr)
    parts = choice.parts
    value = amount(parts.base if parts is not None else choice.value, unit, tr)
    why = ", ".join(tr(FACT_WORDS[f]) for f in choice.facts)
    tail = chances(parts, unit, tr) if parts is not None else ""
    if tail and why:
        return tr.html(
            "• {move} — {value} on average, {tail}: {why}",
            move=move,
            value=value,
            tail=tail,
            why=why,
        )
    if tail:
        return tr.html("• {move} — {value} on average, {tail}", move=move, value=value, tail=tail)
    if why:
        return tr.html("• {move} — {value} on average: {why}", move=move, value=value, why=why)
    return tr.html("• {move} — {value} on average", move=move, value=value)


def hint_html(advice: Advice, tr: Translator) -> Html:
    """The hint's lines: a head, then one line per choice, best first."""
    if not advice.samples:  # one candidate (the only legal one, or the rule's): no figures
        return tr.html(
            "💡 The strongest computer would choose: {move}.", move=words_of(advice.best.action, tr)
        )
    lines = [tr.html("💡 <b>The strongest computer would choose:</b>")]
    lines.extend(_line(choice, advice.unit, tr) for choice in advice.choices)
    return Html("\n".join(lines))


__all__ = ["FACT_WORDS", "amount", "chances", "hint_html", "signed"]
