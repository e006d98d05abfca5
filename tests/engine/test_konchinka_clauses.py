"""Кончинка (RULES.md §4), clause by clause, through the public API.

One stacked three-player deal (no jack and no pair on the initial table, so §4.2.2 changes
nothing) is played to its end by always taking the first legal action. A small referee written
here from the clauses follows the table through the record's ``act`` lines and recomputes the
captures, the draws, the last take and the кончинки.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest

from engine import InvalidOption, Line, new_game

from .clause_helpers import acts, deal_lines, deck_codes, events, konchinka_deal, only, start

HANDS = ["2C 7H 8S 4D", "10D 6C AH QS", "3S 5H 9D 2H"]
TABLE = "9C 5S 3D KH"
DEALER = 2
KONCHINKI = {"2C", "10D"}  # §4.1.3


@dataclass(frozen=True)
class Played:
    lines: list[Line]  # the first deal, ``deal`` … ``deal_end``
    legal: list[list[str]]  # the legal actions offered before each move


@cache
def played() -> Played:
    state = start("konchinka", 3, DEALER, konchinka_deal(3, DEALER, HANDS, TABLE))
    offered: list[list[str]] = []
    while not only(deal_lines(state, 1), "deal_end"):
        seat = state.to_act
        assert seat is not None
        offered.append([str(a) for a in state.legal_actions(seat)])
        state.apply(seat, offered[-1][0])
    return Played(deal_lines(state, 1), offered)


@dataclass
class Followed:
    captured: list[list[str]]
    table: list[str]  # the cards left before the last take
    last_capturer: int | None


def follow(lines: list[Line]) -> Followed:
    """Replay the table from the ``table`` event and the ``act`` lines (§4.3.2–§4.3.5)."""
    (table_event,) = events(lines, "table")
    table = list(table_event["cards"])
    captured: list[list[str]] = [[], [], []]
    last: int | None = None
    for seat, text in acts(lines):
        verb, card, *rest = text.split()
        if verb == "capture":
            taken = [c for c in rest[1:] if c != "+"]
            assert rest[0] == "=" and set(taken) <= set(table)
            table = [c for c in table if c not in taken]
            captured[seat] += [card, *taken]
            last = seat
        elif verb == "sweep":
            captured[seat] += [card, *table]
            table = []
            last = seat
        else:
            assert verb == "trail"
            table.append(card)
    return Followed(captured, table, last)


def test_4_1_1_two_to_four_players_52_cards() -> None:
    for players in (1, 5):
        with pytest.raises(InvalidOption):
            new_game("konchinka", players, 1)
    for players in (2, 3, 4):
        deck = new_game("konchinka", players, 1).record()[2]["deck"]
        assert sorted(deck) == sorted(deck_codes())


def test_4_1_3_the_two_of_clubs_and_ten_of_diamonds_are_the_konchinki() -> None:
    lines = played().lines
    followed = follow(lines)
    (last_take,) = events(lines, "last_take")
    if last_take["seat"] is not None:
        followed.captured[last_take["seat"]] += last_take["cards"]
    (deal_end,) = only(lines, "deal_end")
    won = [sorted(set(c) & KONCHINKI) for c in followed.captured]
    assert sorted(k for w in won for k in w) == sorted(KONCHINKI)  # both taken by someone
    cards = [len(c) for c in followed.captured]
    clubs = [sum(1 for x in c if x.endswith("C")) for c in followed.captured]
    assert sum(cards) == 52
    for seat, row in enumerate(deal_end["seats"]):
        assert (row["cards"], row["clubs"], sorted(row["konchinki"])) == (
            cards[seat],
            clubs[seat],
            won[seat],
        )
        # §4.4.1: 2 / 1 / 0 for most cards, 1 for most clubs, 1 per кончинка
        most = [s for s in range(3) if cards[s] == max(cards)]
        card_points = {1: 2, 2: 1}.get(len(most), 0) if seat in most else 0
        club_points = int(all(clubs[seat] > clubs[o] for o in range(3) if o != seat))
        assert row["points"] == card_points + club_points + len(won[seat])


def test_4_3_1_moves_in_turn_from_the_dealers_left_never_a_pass() -> None:
    record = played()
    seats = [seat for seat, _ in acts(record.lines)]
    assert len(seats) == 52 - 4  # every card of the hands and the stock is played
    assert seats == [(DEALER + 1 + k) % 3 for k in range(len(seats))]
    verbs = {a.split()[0] for offer in record.legal for a in offer}
    assert verbs <= {"capture", "sweep", "trail"} and all(record.legal)


def test_4_3_7_after_each_move_the_mover_draws_while_the_stock_lasts() -> None:
    lines = played().lines
    deck = lines[0]["deck"]
    assert not events(lines, "table_fix")  # so the stock is deck[16 …] in order
    stock = deck[3 * 4 + 4 :]
    draws: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        if line["t"] == "act":
            after = lines[i + 1]
            if len(draws) < len(stock):
                assert after["t"] == "event" and after["e"] == "draw"
                assert after["seat"] == line["seat"]
                draws.append((after["seat"], after["card"]))
            else:
                assert after.get("e") != "draw"  # the stock is gone
    assert [card for _, card in draws] == stock


def test_4_3_8_the_last_capturer_takes_the_cards_left_on_the_table() -> None:
    lines = played().lines
    followed = follow(lines)
    (last_take,) = events(lines, "last_take")
    assert kinds_after_last_act(lines) == ["event:last_take", "deal_end"]
    assert last_take["seat"] == followed.last_capturer is not None
    assert sorted(last_take["cards"]) == sorted(followed.table)


def kinds_after_last_act(lines: list[Line]) -> list[str]:
    last = max(i for i, line in enumerate(lines) if line["t"] == "act")
    return [
        f"event:{x['e']}" if x["t"] == "event" else x["t"]
        for x in lines[last + 1 :]
        if x.get("e") != "draw"
    ]
