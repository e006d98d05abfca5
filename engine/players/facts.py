"""What a hint says decided a choice (:func:`facts`): facts of the seat's own view only, each
true of the hand, the table and the action as they are — never a guess about hidden cards.

Per family, the facts its search's outcome rests on: the trick family's strength of the hand
and what a card is (§1.3, §1.4); Копилка's trick — whether the card takes it, what it is worth,
the aces, the last card (§2.4, §2.6.1); Лентюрлю's run — the stake it takes, the deal it wins,
the pile it closes, how much it sheds (§3.4); Кончинка's capture — the кончинки and clubs it
takes, how many cards, the table it clears, and what a trail gives away (§4.3, §4.4.1).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

from engine.actions import Buy, Pass, PlayCard
from engine.cards import A_HIGH, RANK_VALUE, Card, Rank, Suit, rank_index
from engine.core import View
from engine.konchinka.actions import Capture, Sweep, Trail
from engine.konchinka.rules import KONCHINKI
from engine.konchinka.view import KonchinkaView
from engine.kopilka.rules import ACE_OF_SPADES
from engine.kopilka.view import KopilkaView
from engine.lenturlu.actions import Run
from engine.lenturlu.rules import ACE_OF_SPADES as LENTURLU_AS
from engine.lenturlu.rules import KING_VALUE, able, follow_value
from engine.lenturlu.view import LenturluView
from engine.players.trick import _strong_cards
from engine.players.trick_model import PLAY_STRENGTH
from engine.trick.actions import Exchange
from engine.trick.variant import VARIANTS
from engine.trick.view import TrickView


class Fact(StrEnum):
    """What a choice's hint can say decided it: facts of the seat's own view only."""

    # the trick family
    WEAK_HAND = "weak_hand"  # fewer strong cards (trumps, the top ranks) than a hand to play
    STRONG_HAND = "strong_hand"  # enough strong cards to play
    KEEPS_PRIVILEGED = "keeps_privileged"  # the exchange keeps the privileged card (§1.5.1)
    KEEPS_TRUMPS = "keeps_trumps"  # the exchange keeps every trump of the hand
    FOLLOWS_SUIT = "follows_suit"  # the card follows the led suit (§1.4.3)
    TRUMPS = "trumps"  # the card is a trump
    LOWEST_TRUMP = "lowest_trump"  # … the lowest of the seat's trumps
    NO_TRUMP_LEFT = "no_trump_left"  # the seat holds no trump
    HIGHEST_OF_SUIT = "highest_of_suit"  # the seat's highest card of that suit (Копилка too)
    LOWEST_OF_SUIT = "lowest_of_suit"  # the seat's lowest card of that suit (Копилка too)
    # Копилка
    ACE_OF_SPADES = "ace_of_spades"  # the A♠: it wins any trick (§2.4.4)
    ACE_DOUBLES = "ace_doubles"  # the trick suit's own ace: a trick it wins counts double (§2.6.1)
    TAKES_FOR_NOW = "takes_for_now"  # a follow above every card of the trick so far (§2.4.6)
    STAYS_UNDER = "stays_under"  # a follow below the trick's best card: the trick is not taken
    DEAR_TRICK = "dear_trick"  # the trick's suit is ♥ or ♦: worth 4 or 3 (§2.6.1)
    CHEAP_TRICK = "cheap_trick"  # the trick's suit is ♠ or ♣: worth 1 or 2
    LAST_CARD = "last_card"  # the seat's last card: the hand empties (§2.5.1)
    NO_CARD_OF_SUIT = "no_card_of_suit"  # the seat holds none of the suit led (§2.4.3 b)
    PASS_FINE = "pass_fine"  # a pass holding the suit led: a fine (§2.4.3 a)
    # Лентюрлю
    TAKES_STAKE = "takes_stake"  # the run holds a Lenturlu card with money on it (§3.4.4)
    WINS_DEAL = "wins_deal"  # a covering K or the seat's last cards: the deal is won (§3.4.2)
    CLOSES_PILE = "closes_pile"  # a K ends the run: the pile closes, the seat leads again
    LONGEST_RUN = "longest_run"  # the longest run the seat may play (more than one card)
    CANNOT_FOLLOW = "cannot_follow"  # the seat holds no card of the rank the pile needs (§3.3.1)
    # Кончинка
    TAKES_KONCHINKA = "takes_konchinka"  # the 2♣ or the 10♦ is among the cards taken (§4.4.1)
    TAKES_CLUBS = "takes_clubs"  # a club lies among the table cards taken
    TAKES_SEVERAL = "takes_several"  # two or more table cards at once
    CLEARS_TABLE = "clears_table"  # every table card is taken: the next player must trail
    NOTHING_TO_TAKE = "nothing_to_take"  # a trail: no card of the hand can capture (§4.3.5)
    GIVES_LITTLE = "gives_little"  # a trail of neither a club nor a кончинка
    COURT_CARD = "court_card"  # a K or Q trailed: only its own rank takes it (§4.3.3)


DEAR: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})
"""Копилка's dear suits: a trick of ♥ is worth 4, of ♦ 3; of ♣ 2, of ♠ 1 (§2.6.1)."""
_A_HIGH: Final = rank_index(A_HIGH)


def facts(view: View[Any, Any], action: Any) -> tuple[Fact, ...]:
    """The facts of ``view`` that ``action`` (one of ``view.legal``) rests on, in order."""
    if isinstance(view, TrickView):
        return _trick(view, action)
    if isinstance(view, KopilkaView):
        return _kopilka(view, action)
    if isinstance(view, LenturluView):
        return _lenturlu(view, action)
    if isinstance(view, KonchinkaView):
        return _konchinka(view, action)
    return ()


def _trick(view: TrickView, action: Any) -> tuple[Fact, ...]:
    trump = view.trump
    trumps = [c for c in view.hand if trump is not None and c.suit is trump]
    if isinstance(action, Pass):  # what the hand lacks or has
        strong = _strong_cards(view)
        worth = sum(2 if c == view.privileged else 1 for c in strong)
        out = [Fact.WEAK_HAND if worth < PLAY_STRENGTH else Fact.STRONG_HAND]
        if not trumps:
            out.append(Fact.NO_TRUMP_LEFT)
        return tuple(out)
    if isinstance(action, Exchange):  # what the exchange keeps
        out = []
        if view.privileged in view.hand and view.privileged not in action.cards:
            out.append(Fact.KEEPS_PRIVILEGED)
        if trumps and not any(c in action.cards for c in trumps):
            out.append(Fact.KEEPS_TRUMPS)
        return tuple(out)
    if not isinstance(action, PlayCard):
        return ()
    card = action.card
    strength = rank_index(VARIANTS[view.game].order)
    out = []
    if view.led is not None and card.suit is view.led:
        out.append(Fact.FOLLOWS_SUIT)
    if card.suit is trump:
        out.append(Fact.TRUMPS)
        if len(trumps) > 1 and card == min(trumps, key=lambda c: strength[c.rank]):
            out.append(Fact.LOWEST_TRUMP)
    elif not trumps:
        out.append(Fact.NO_TRUMP_LEFT)
    if card.suit is not trump:
        out.extend(_rank_in_suit(view.hand, card, strength))
    return tuple(out)


def _rank_in_suit(hand: tuple[Card, ...], card: Card, strength: Any) -> list[Fact]:
    """The seat's highest or lowest card of the card's suit, when it holds two or more."""
    ranks = [strength[c.rank] for c in hand if c.suit is card.suit]
    if len(ranks) < 2:
        return []
    if strength[card.rank] == max(ranks):
        return [Fact.HIGHEST_OF_SUIT]
    if strength[card.rank] == min(ranks):
        return [Fact.LOWEST_OF_SUIT]
    return []


def _kopilka(view: KopilkaView, action: Any) -> tuple[Fact, ...]:
    led = view.led_suit
    if isinstance(action, Buy | Pass):
        if led is None:
            return ()
        if any(c.suit is led for c in view.hand):
            return (Fact.PASS_FINE,) if isinstance(action, Pass) else ()
        return (Fact.NO_CARD_OF_SUIT,)
    if not isinstance(action, PlayCard):
        return ()
    card = action.card
    suit = led if led is not None and view.trick else card.suit
    out: list[Fact] = []
    if card == ACE_OF_SPADES:
        out.append(Fact.ACE_OF_SPADES)
    elif card.rank is Rank.ACE and card.suit is suit:
        out.append(Fact.ACE_DOUBLES)
    if view.trick:  # a follow: above or below the trick's best card
        out.append(Fact.TAKES_FOR_NOW if _beats(card, view.trick, suit) else Fact.STAYS_UNDER)
    out.append(Fact.DEAR_TRICK if suit in DEAR else Fact.CHEAP_TRICK)
    out.extend(_rank_in_suit(view.hand, card, _A_HIGH))
    if len(view.hand) == 1:
        out.append(Fact.LAST_CARD)
    return tuple(out)


def _beats(card: Card, trick: tuple[tuple[int, Card], ...], suit: Suit) -> bool:
    """Whether ``card`` played now would hold the trick (§2.4.6: the A♠, else the highest of
    the suit led)."""
    played = [c for _, c in trick]
    if card == ACE_OF_SPADES:
        return True
    if ACE_OF_SPADES in played[1:] or card.suit is not suit:
        return False
    return all(c.suit is not suit or _A_HIGH[card.rank] > _A_HIGH[c.rank] for c in played)


def _lenturlu(view: LenturluView, action: Any) -> tuple[Fact, ...]:
    if isinstance(action, Buy | Pass):
        if view.top is not None and not able(view.hand, follow_value(view.top)):
            return (Fact.CANNOT_FOLLOW,)
        return ()
    if not isinstance(action, Run):
        return ()
    cards = action.cards
    out: list[Fact] = []
    money = dict(view.layout)
    if any(money.get(c, 0) > 0 and (c != LENTURLU_AS or view.as_stake_open) for c in cards):
        out.append(Fact.TAKES_STAKE)
    king = RANK_VALUE[cards[-1].rank] == KING_VALUE
    covering = king and not view.leading and view.manner == "king"
    if covering or len(cards) == len(view.hand):
        out.append(Fact.WINS_DEAL)
    elif king:
        out.append(Fact.CLOSES_PILE)
    longest = max(len(r.cards) for r in view.legal if isinstance(r, Run))
    if len(cards) > 1 and len(cards) == longest:
        out.append(Fact.LONGEST_RUN)
    return tuple(out)


def _konchinka(view: KonchinkaView, action: Any) -> tuple[Fact, ...]:
    if isinstance(action, Trail):
        card = action.card
        out = [Fact.NOTHING_TO_TAKE]
        if card.suit is not Suit.CLUBS and card not in KONCHINKI:
            out.append(Fact.GIVES_LITTLE)
        if not view.court_values and card.rank in (Rank.KING, Rank.QUEEN):
            out.append(Fact.COURT_CARD)
        return tuple(out)
    if isinstance(action, Sweep):
        taken = frozenset(view.table)
    elif isinstance(action, Capture):
        taken = action.taken
    else:
        return ()
    out = []
    if any(c in KONCHINKI for c in (*taken, action.card)):
        out.append(Fact.TAKES_KONCHINKA)
    if any(c.suit is Suit.CLUBS for c in taken):
        out.append(Fact.TAKES_CLUBS)
    if len(taken) == len(view.table):
        out.append(Fact.CLEARS_TABLE)
    elif len(taken) >= 2:
        out.append(Fact.TAKES_SEVERAL)
    return tuple(out)


__all__ = ["DEAR", "Fact", "facts"]
