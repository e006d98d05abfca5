"""A newcomer's one-line tip on his hand: the rule behind the decision he faces now
(:func:`engine.tips.tip_kind`), as this game says it. Pure: a kind and a game in, one line of
Telegram HTML out (the texts carry no markup and no user's words); the runtime decides whether
the owner sees it (his /settings «Tips»), the presenter puts it under the hand's head."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from bot.i18n import N_, Translator
from bot.markup import Html, esc
from bot.presses.meaning import ModeKind
from bot.rendered import Rendered
from engine.tips import TipKind

TIP_MARK: Final = "📖"
"""What starts a tip line (💡 is the hint's)."""

TIPS: Final[Mapping[TipKind, str]] = MappingProxyType(
    {
        TipKind.RETRUMP: N_(
            "The J♣ is turned up: take it, discard another card and name any suit as trump. "
            "With the J♣ you may not pass."
        ),
        TipKind.ANNOUNCE: N_(
            "You were dealt the J♣: announce it before you play and each other player pays you "
            "the bonus. With it you may not pass."
        ),
        TipKind.DECLARE: N_(
            "Play or pass. Playing, you may swap cards for the stock's. A pass costs nothing; "
            "no trick after playing is a remise: +5."
        ),
        TipKind.MAY_PASS_SAFE: N_(
            "With the Q♠ you may pass, and playing you never get a remise. Five spades with it "
            "win the pulka at once."
        ),
        TipKind.MAY_NOT_PASS: N_("You hold the privileged card: you may not pass."),
        TipKind.MUST_DEFEND: N_(
            "You deal and only one player plays: you may not pass, you defend against him."
        ),
        TipKind.DISCARD: N_(
            "The Q♠ was dealt out of the stock: discard as many cards as you got, back to five "
            "(never the Q♠)."
        ),
        TipKind.LEAD: N_("You lead: any card. Who wins the trick leads the next."),
        TipKind.FOLLOW_SUIT: N_("You hold the led suit: you must follow it."),
        TipKind.MUST_TRUMP: N_("No card of the led suit: at this table you must then trump."),
        TipKind.ANY_CARD: N_("No card of the led suit: play any card; a trump can take the trick."),
        TipKind.BUY_OR_PASS: N_(
            "No card of the led suit: buy 1 or 2 from the stock, play the A♠ or pass — never "
            "another suit."
        ),
        TipKind.ACE_OR_PASS: N_(
            "No card of the led suit: play the A♠, which takes any trick, or pass — never "
            "another suit."
        ),
        TipKind.CONTINUE: N_(
            "Go on with the pile: a run from the next rank up, or buy 1 or 2 cards to build "
            "one, or pass."
        ),
        TipKind.CONTINUE_OR_PASS: N_(
            "You have bought: go on with the pile with a run from the next rank up, or pass."
        ),
        TipKind.MUST_PLAY: N_("The stock is empty and you can go on with the pile: you must."),
        TipKind.MUST_BUY: N_(
            "You can't go on with the pile: buy 1 or 2 cards; still unable, you pass."
        ),
        TipKind.MUST_CAPTURE: N_(
            "You can capture, so you must: a card goes to the table only when nothing captures."
        ),
        TipKind.SWEEP: N_("A jack takes every card on the table. You can capture, so you must."),
        TipKind.TRAIL: N_("Nothing in your hand captures: put any card on the table."),
        TipKind.EMPTY_TABLE: N_(
            "The table is empty: put a card on it; the next players may capture it."
        ),
    }
)
"""Each kind's tip, as every game that has the decision says it (unless :data:`GAME_TIPS`)."""

GAME_TIPS: Final[Mapping[tuple[str, TipKind], str]] = MappingProxyType(
    {
        ("mushka", TipKind.MAY_NOT_PASS): N_(
            "You hold the A♠: you may not pass. No trick with it is a remise of 10."
        ),
        ("mistigri", TipKind.MAY_NOT_PASS): N_(
            "You hold the K♣: you may not pass. No trick with it is a remise of 10."
        ),
        ("pamfil", TipKind.MAY_NOT_PASS): N_(
            "You hold the J♣: you may not pass. It takes any trick you play it to."
        ),
        ("mushka", TipKind.LEAD): N_(
            "You lead: any card. The A♠ takes a trick played on another's lead; led, it is an "
            "ordinary spade."
        ),
        ("mistigri", TipKind.LEAD): N_(
            "You lead: any card. The K♣ takes a trick played on another's lead; led, it is an "
            "ordinary club."
        ),
        ("pamfil", TipKind.LEAD): N_(
            "You lead: any card. The J♣ is a trump and takes any trick, led or not."
        ),
        ("shutikha", TipKind.LEAD): N_(
            "You lead: any card; spades are always trump. A trick the Q♠ takes writes off 8."
        ),
        ("kopilka", TipKind.LEAD): N_(
            "You lead: any card, but not of the suit led to the last trick (a deal's first "
            "lead is free)."
        ),
        ("lenturlu", TipKind.LEAD): N_(
            "You start a pile: a run of ranks in a row, any suits (6, 7, 8…). An ace may only "
            "begin a run."
        ),
        ("pamfil", TipKind.FOLLOW_SUIT): N_(
            "You hold the led suit: you must follow it, or play the J♣, allowed on any trick."
        ),
        ("kopilka", TipKind.FOLLOW_SUIT): N_(
            "You hold the led suit: play it, or the A♠, which takes any trick. No buying now."
        ),
        ("mushka", TipKind.ANY_CARD): N_(
            "No card of the led suit: play any card. A trump can take the trick; so does the "
            "A♠ played now."
        ),
        ("mistigri", TipKind.ANY_CARD): N_(
            "No card of the led suit: play any card. A trump can take the trick; so does the "
            "K♣ played now."
        ),
        ("pamfil", TipKind.ANY_CARD): N_(
            "No card of the led suit: play any card. A trump can take the trick; the J♣ takes it."
        ),
    }
)
"""Where a game's rule makes the tip its own (its privileged card, its remise)."""


EXCHANGING: Final = N_(
    "Tap the cards to throw away: as many come from the stock. “Keep all”: you play your own."
)
"""The declaration's tip once the hand is marking its exchange (after ✅ Play, or a card
tapped): the decision is the same (play with an exchange, RULES.md §1.3.4), its step is new."""

DECLARING: Final = frozenset(
    {TipKind.DECLARE, TipKind.MAY_NOT_PASS, TipKind.MUST_DEFEND, TipKind.MAY_PASS_SAFE}
)
"""The kinds whose decision includes the exchange."""


def tip_text(kind: TipKind, game: str, tr: Translator, mode: ModeKind = ModeKind.PLAIN) -> str:
    """The tip's words in ``tr``'s language, without its mark (``mode``: the hand's)."""
    if mode is ModeKind.EXCHANGE and kind in DECLARING:
        return tr(EXCHANGING)
    return tr(GAME_TIPS.get((game, kind)) or TIPS[kind])


def tip_line(kind: TipKind, game: str, tr: Translator, mode: ModeKind = ModeKind.PLAIN) -> Html:
    """``📖 Играть или пас…``: the line the presenter puts under the hand's head."""
    return Html(f"{TIP_MARK} <i>{esc(tip_text(kind, game, tr, mode))}</i>")


def with_tip(
    rendered: Rendered, kind: TipKind, game: str, tr: Translator, mode: ModeKind = ModeKind.PLAIN
) -> Rendered:
    """A hand message with the tip's line under its head (its first line)."""
    head, _, rest = rendered.text.partition("\n")
    lines = [head, tip_line(kind, game, tr, mode), *([rest] if rest else [])]
    return Rendered("\n".join(lines), rendered.markup)
