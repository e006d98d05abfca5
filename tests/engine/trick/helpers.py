"""Fixed deals for the trick-family tests (RULES.md §0.6 dealing order)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.cards import Card, parse_cards
from engine.chance import StackedChance
from engine.core import Seat
from engine.games import new_game
from engine.trick import TrickAction, TrickState
from engine.trick.variant import VARIANTS, deck_for


def deal_deck(
    game: str,
    players: int,
    dealer: Seat,
    hands: Sequence[str],
    turn_up: str | None = None,
    stock: str = "",
) -> list[Card]:
    """A deck whose deal gives seat s ``hands[s]`` (§0.6), then the turn-up, then ``stock``;
    the other cards of the game's deck follow in a fixed order."""
    n = players
    parsed = [parse_cards(h) for h in hands]
    assert len(parsed) == n and all(len(h) == 5 for h in parsed)
    top: list[Card] = []
    for k in range(5 * n):
        seat = (dealer + 1 + k) % n
        top.append(parsed[seat][k // n])
    if VARIANTS[game].turn_up:
        assert turn_up is not None
        top.append(Card.parse(turn_up))
    top.extend(parse_cards(stock))
    assert len(set(top)) == len(top)
    rest = [c for c in deck_for(n) if c not in set(top)]
    return top + rest


def fixed(
    game: str,
    players: int,
    dealer: Seat,
    hands: Sequence[str],
    turn_up: str | None = None,
    stock: str = "",
    options: Mapping[str, object] | None = None,
    more: Sequence[Sequence[Card]] = ((),),
) -> TrickState:
    """A pulka whose first deal is fixed (no draw: the dealer continues a series, §0.8).

    ``more`` answers the next shuffles (by default one more deal in the deck's fixed order)."""
    deck = deal_deck(game, players, dealer, hands, turn_up, stock)
    chance = StackedChance.of([deck, *more])
    state = new_game(game, players, 1, options, chance=chance, prev_dealer=(dealer - 1) % players)
    assert isinstance(state, TrickState)
    return state


def act(state: TrickState, *moves: tuple[Seat, str]) -> None:
    """Apply actions given in RECORD.md notation."""
    for seat, text in moves:
        state.apply(seat, text)


def by_kind(rng: random.Random, legal: Sequence[TrickAction]) -> TrickAction:
    """A random player: first a kind of action, then one of that kind (keeps pulkas short)."""
    kinds: dict[str, list[TrickAction]] = {}
    for action in legal:
        kinds.setdefault(type(action).__name__, []).append(action)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def events(lines: Sequence[Mapping[str, object]], name: str) -> list[Mapping[str, object]]:
    return [line for line in lines if line.get("t") == "event" and line.get("e") == name]
