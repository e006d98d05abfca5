"""Fixed deals and record helpers for the clause tests, through the engine's public API only.

A game is started with :func:`start`: a stacked first-dealer draw that makes the wanted seat the
dealer (RULES.md §0.5), then the given deal decks (StackedChance). Decks are built here from card
codes by the dealing rule of §0.6 (``deck[k]`` goes to seat ``(dealer + 1 + k) mod n``); the
cards nobody asked for follow in a fixed order (suits S C D H, ranks A K … 2 within a suit).

Everything the tests assert is read from ``state.record()`` (RECORD.md lines), ``to_act``,
``legal_actions`` (as text) and ``IllegalAction.code.value``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import pytest

from engine import Card, IllegalAction, Line, SeededChance, StackedChance, State, new_game

SUITS = ("S", "C", "D", "H")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
TRICK_GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
SEED = 1


def deck_codes(lowest: str = "2") -> list[str]:
    """A full deck from ``lowest`` up to the ace (§0.3), in the fixed filling order."""
    ranks = RANKS[: RANKS.index(lowest) + 1]
    return [r + s for s in SUITS for r in ranks]


def game_deck(game: str, players: int) -> list[str]:
    """The deck of a game (§1.1.2, §2.1.1, §3.1.1, §4.1.1)."""
    if game in TRICK_GAMES:
        return deck_codes({3: "7", 4: "6"}.get(players, "2"))
    if game == "kopilka":
        return deck_codes("7")
    return deck_codes("2")


def cards(text: str | Iterable[str]) -> list[Card]:
    codes = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(c) for c in codes]


def split(text: str) -> list[str]:
    return text.split()


def draw_for(game: str, players: int, dealer: int) -> list[Card]:
    """One draw round in which ``dealer`` takes the only lowest card (§0.5.1–§0.5.2).

    The trick family and Копилка draw by their rank order (the deck's lowest pip is lowest);
    Лентюрлю and Кончинка with the ace lowest. Kings and queens are high in every order.
    """
    low = "A" if game in ("lenturlu", "konchinka") else game_deck(game, players)[-1][:-1]
    high = ["KH", "KD", "KC", "KS", "QH", "QD", "QC", "QS"]
    row = [f"{low}S" if seat == dealer else high.pop(0) for seat in range(players)]
    return cards(row)


def dealt_order(players: int, dealer: int, hands: Sequence[Sequence[str]]) -> list[str]:
    """The top of a deck that deals ``hands`` (all of one size) by §0.6."""
    size = len(hands[0])
    assert len(hands) == players and all(len(h) == size for h in hands)
    return [hands[(dealer + 1 + k) % players][k // players] for k in range(players * size)]


def complete(game: str, players: int, top: Sequence[str]) -> list[Card]:
    """``top`` followed by the rest of the game's deck in the fixed order."""
    deck = game_deck(game, players)
    assert len(set(top)) == len(top), f"a card is given twice: {sorted(top)}"
    assert set(top) <= set(deck), f"not in the deck: {sorted(set(top) - set(deck))}"
    return cards([*top, *(c for c in deck if c not in set(top))])


def trick_deal(
    game: str,
    players: int,
    dealer: int,
    hands: Sequence[str],
    turn_up: str | None = None,
    stock: str = "",
) -> list[Card]:
    """A trick-family deal (§1.1.6–§1.1.7): 5 cards each, the turn-up, then the stock."""
    top = dealt_order(players, dealer, [split(h) for h in hands])
    if game != "shutikha":
        assert turn_up is not None, "mushka, pamfil and mistigri turn a card up"
        top.append(turn_up)
    return complete(game, players, top + split(stock))


def kopilka_deal(dealer: int, hands: Sequence[str], stock: str = "") -> list[Card]:
    """A Копилка deal (§2.2.1): 5 cards to each of the 4 seats, then the stock's top."""
    return complete("kopilka", 4, dealt_order(4, dealer, [split(h) for h in hands]) + split(stock))


LENTURLU_EACH = {3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6}  # §3.1.4


def lenturlu_deal(
    players: int, dealer: int, hands: Sequence[str], stock: str = ""
) -> tuple[list[Card], list[list[str]]]:
    """A Лентюрлю deal; hands shorter than §3.1.4's size are filled from the unused cards in
    the fixed order (seats not given get only filling). Returns the deck and the full hands."""
    each = LENTURLU_EACH[players]
    given = [split(h) for h in hands] + [[] for _ in range(players - len(hands))]
    used = [c for h in given for c in h] + split(stock)
    assert len(set(used)) == len(used), "a card is given twice"
    rest = [c for c in deck_codes() if c not in set(used)]
    full: list[list[str]] = []
    for hand in given:
        assert len(hand) <= each, "a hand is too large"
        need = each - len(hand)
        full.append(hand + rest[:need])
        del rest[:need]
    top = dealt_order(players, dealer, full) + split(stock)
    return complete("lenturlu", players, top), full


def konchinka_deal(
    players: int, dealer: int, hands: Sequence[str], table: str, stock: str = ""
) -> list[Card]:
    """A Кончинка deal (§4.2.1): 4 cards each, 4 to the table, then the stock's top."""
    top = dealt_order(players, dealer, [split(h) for h in hands]) + split(table) + split(stock)
    return complete("konchinka", players, top)


@dataclass
class ThenSeeded:
    """Given decks and picks first (a StackedChance), then a seeded fallback for the rest.

    For games whose later deals or random takes the test does not look at (Копилка's four
    deals). It implements the public ``engine.Chance`` protocol.
    """

    decks: int
    picks: int
    stacked: StackedChance
    exhausted_error: bool = False
    fallback: SeededChance = field(default_factory=lambda: SeededChance(random.Random(7)))
    offered: list[list[str]] = field(default_factory=list)

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        if self.decks or self.exhausted_error:
            self.decks -= 1
            return self.stacked.shuffled(cards)  # raises once nothing is left
        return self.fallback.shuffled(cards)

    def ready(self) -> bool:
        return True

    def choice(self, options: Sequence[Card]) -> Card:
        self.offered.append([str(c) for c in options])
        if self.picks or self.exhausted_error:
            self.picks -= 1
            return self.stacked.choice(options)
        return self.fallback.choice(options)


def start(
    game: str,
    players: int,
    dealer: int,
    deal: Sequence[Card],
    options: Mapping[str, object] | None = None,
    *,
    more: Sequence[Sequence[Card]] | None = None,
    picks: str = "",
    fallback: bool = False,
) -> State:
    """A game whose first dealer is ``dealer`` (by a stacked draw) and whose first deal is
    ``deal``; ``more`` answers the next shuffles (by default one spare deck in the fixed order,
    so that the next deal can start), ``picks`` Копилка's random takes. With ``fallback``
    anything further comes from a seeded generator instead of being an error."""
    if fallback:
        return start_recorded(game, players, dealer, deal, options, more=more, picks=picks)[0]
    if more is None:
        more = [complete(game, players, [])]
    decks = [draw_for(game, players, dealer), list(deal), *map(list, more)]
    state = new_game(game, players, SEED, options, chance=StackedChance.of(decks, cards(picks)))
    seats = state.record()[1]
    assert seats["by"] == "draw" and seats["first_dealer"] == dealer
    return state


def start_recorded(
    game: str,
    players: int,
    dealer: int,
    deal: Sequence[Card],
    options: Mapping[str, object] | None = None,
    *,
    more: Sequence[Sequence[Card]] | None = None,
    picks: str = "",
    fallback: bool = True,
) -> tuple[State, ThenSeeded]:
    """:func:`start`, also returning the chance (it records the options of every random pick;
    without ``fallback`` it answers only what is given)."""
    if more is None:
        more = [complete(game, players, [])]
    decks = [draw_for(game, players, dealer), list(deal), *map(list, more)]
    stacked = StackedChance.of(decks, cards(picks))
    chance = ThenSeeded(len(decks), len(cards(picks)), stacked, exhausted_error=not fallback)
    state = new_game(game, players, SEED, options, chance=chance)
    seats = state.record()[1]
    assert seats["by"] == "draw" and seats["first_dealer"] == dealer
    return state, chance


# --- reading records ---------------------------------------------------------------------------


def events(lines: Iterable[Line], name: str | None = None) -> list[Line]:
    return [x for x in lines if x["t"] == "event" and (name is None or x["e"] == name)]


def only(lines: Iterable[Line], t: str) -> list[Line]:
    return [x for x in lines if x["t"] == t]


def acts(lines: Iterable[Line]) -> list[tuple[int, str]]:
    return [(x["seat"], x["a"]) for x in lines if x["t"] == "act"]


def kinds(lines: Iterable[Line]) -> list[str]:
    """``deal``, ``act``, ``event:<name>``, ``deal_end`` … one per line."""
    return [f"event:{x['e']}" if x["t"] == "event" else x["t"] for x in lines]


def deal_lines(state: State, no: int = 1) -> list[Line]:
    """The lines of deal ``no``, from its ``deal`` line up to its ``deal_end`` inclusive."""
    record = state.record()
    begin = next(i for i, x in enumerate(record) if x["t"] == "deal" and x["no"] == no)
    end = next(
        (i for i, x in enumerate(record) if x["t"] == "deal_end" and x["no"] == no), len(record)
    )
    return record[begin : end + 1]


def legal(state: State, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def play(state: State, *moves: tuple[int, str]) -> list[Line]:
    """Apply ``(seat, action text)`` moves; every line they produced."""
    out: list[Line] = []
    for seat, text in moves:
        out.extend(state.apply(seat, text))
    return out


def play_seq(state: State, *texts: str) -> list[Line]:
    """Apply actions by whoever is to act."""
    out: list[Line] = []
    for text in texts:
        seat = state.to_act
        assert seat is not None, f"nobody is to act for {text!r}"
        out.extend(state.apply(seat, text))
    return out


def play_first_legal(state: State, until: str = "deal_end", limit: int = 2000) -> list[Line]:
    """Let whoever is to act take the first legal action until a line of type ``until``."""
    out: list[Line] = []
    for _ in range(limit):
        seat = state.to_act
        if seat is None:
            return out
        lines = state.apply(seat, str(state.legal_actions(seat)[0]))
        out.extend(lines)
        if any(x["t"] == until for x in lines):
            return out
    raise AssertionError("no end reached")


def refused(state: State, seat: int, text: str) -> IllegalAction:
    """Apply an illegal action: it raises and changes nothing; the refusal."""
    before = state.record()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, text)
    assert state.record() == before, "a refused action changed the record"
    return caught.value
