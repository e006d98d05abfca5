"""Кончинка: random playouts checked by an independent referee, and the golden records.

The referee below re-reads RULES.md §4 and RECORD.md §R9 on its own: from the record's decks and
``act`` lines alone it rebuilds every hand, the table and the stock, checks each move is legal,
and recomputes every event and figure (table fixes, draws, certainty, last take, deal points,
totals, settlement).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from engine import IllegalAction, Refusal, new_game, replay
from engine.cards import DECK_52, Card, Suit, parse_cards
from engine.konchinka import KonchinkaState
from engine.record import read_records

GOLDEN = Path(__file__).parent.parent / "golden" / "records"
VALUE = {"A": 1, **{str(v): v for v in range(2, 11)}, "J": 11, "Q": 12, "K": 13}
KONCHINKI = {Card.parse("2C"), Card.parse("10D")}
OPTIONS = {"target", "court_values", "payment", "point_value", "stake"}


def _value(card: Card, court: bool) -> int | None:
    rank = card.rank.value
    return None if rank in "JQK" and not court else VALUE[rank]


def _sums(values: Sequence[int]) -> set[int]:
    reach = {0}
    for v in values:
        reach |= {r + v for r in reach}
    return reach


def _can_capture(card: Card, table: Sequence[Card], court: bool) -> bool:
    rank = card.rank.value
    if not court and rank == "J":
        return bool(table)
    if not court and rank in "QK":
        return any(t.rank is card.rank for t in table)
    v = _value(card, court)
    assert v is not None
    values = [x for x in (_value(t, court) for t in table) if x is not None and x <= v]
    return v in _sums(values)


def _valid_group(card: Card, group: Sequence[Card], court: bool) -> bool:
    rank = card.rank.value
    if not court and rank in "QK":
        return len(group) == 1 and group[0].rank is card.rank
    values = [_value(x, court) for x in group]
    return bool(group) and None not in values and sum(x or 0 for x in values) == VALUE[rank]


def _points(cards: list[int], clubs: list[int], kon: list[int]) -> list[int]:
    pts = list(kon)
    most = [s for s, k in enumerate(cards) if k == max(cards)]
    if len(most) == 1:
        pts[most[0]] += 2
    elif len(most) == 2:
        for s in most:
            pts[s] += 1
    best = [s for s, k in enumerate(clubs) if k == max(clubs)]
    if len(best) == 1:
        pts[best[0]] += 1
    return pts


def _bounds(cards: list[int], clubs: list[int], kon: list[int]) -> tuple[list[int], list[int]]:
    n = len(cards)
    r, u, free = 52 - sum(cards), 13 - sum(clubs), 2 - sum(kon)
    g, m = [], []
    for i in range(n):
        ko = max(cards[j] for j in range(n) if j != i)
        co = max(clubs[j] for j in range(n) if j != i)
        g.append(2 * (cards[i] > ko + r) + (clubs[i] > co + u) + kon[i])
        cards_m = 2 if cards[i] + r > ko else 1 if cards[i] + r == ko else 0
        m.append(cards_m + (clubs[i] + u > co) + kon[i] + free)
    return g, m


def _canon(cards: Sequence[Card]) -> list[str]:
    order = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
    return [
        str(x) for x in sorted(cards, key=lambda x: ("SCDH".index(x.suit), order.index(x.rank)))
    ]


def referee(record: list[dict[str, Any]]) -> None:
    """Check a whole Кончинка record against RULES.md §4 / RECORD.md §R9 (asserts)."""
    head, seats = record[0], record[1]
    n, opts = head["players"], head["options"]
    assert head["game"] == "konchinka" and set(opts) == OPTIONS and 2 <= n <= 4
    court, target = opts["court_values"], opts["target"]
    lines = iter(record[2:])
    totals = [0] * n
    dealer, deal_no = seats["first_dealer"], 0
    while True:
        line = next(lines)
        if line["t"] == "end":
            assert line == {"t": "end", "reason": "abandoned", "net": [0] * n}
            return
        deal_no += 1
        assert line["t"] == "deal" and line["no"] == deal_no and line["dealer"] == dealer
        deck = parse_cards(line["deck"])
        assert sorted(map(str, deck)) == sorted(map(str, DECK_52))
        hands = [deck[(s - dealer - 1) % n : 4 * n : n] for s in range(n)]
        table, stock = deck[4 * n : 4 * n + 4], deck[4 * n + 4 :]
        while True:  # §4.2.2
            bad = [
                p
                for p, x in enumerate(table)
                if x.rank.value == "J" or any(y.rank is x.rank for y in table[:p])
            ]
            if not bad:
                break
            p, removed, at = bad[0], table[bad[0]], len(stock) // 2
            stock.insert(at, removed)
            table[p] = stock.pop(0)
            fix = {"t": "event", "e": "table_fix", "place": p + 1, "card": str(removed)}
            assert next(lines) == {**fix, "insert_at": at, "replacement": str(table[p])}
        assert next(lines) == {"t": "event", "e": "table", "cards": [str(x) for x in table]}
        got: list[list[Card]] = [[] for _ in range(n)]
        last: int | None = None
        seat = (dealer + 1) % n
        while True:  # §4.3
            line = next(lines)
            if line["t"] == "end":
                assert line == {"t": "end", "reason": "abandoned", "net": [0] * n}
                return
            assert line["t"] == "act" and line["seat"] == seat
            words = line["a"].split(" ")
            card = Card.parse(words[1])
            hand = hands[seat]
            assert card in hand
            able = any(_can_capture(x, table, court) for x in hand)
            if words[0] == "trail":
                assert not able and len(words) == 2
                table.append(card)
            elif words[0] == "sweep":
                assert not court and card.rank.value == "J" and table and len(words) == 2
                got[seat] += [card, *table]
                table, last = [], seat
            else:
                assert words[0] == "capture" and words[2] == "="
                assert court or card.rank.value != "J"
                groups = [parse_cards(g) for g in " ".join(words[3:]).split(" + ")]
                taken = [x for g in groups for x in g]
                assert len(set(taken)) == len(taken) and set(taken) <= set(table)
                assert all(_valid_group(card, g, court) for g in groups)
                got[seat] += [card, *taken]
                table, last = [x for x in table if x not in taken], seat
            hand.remove(card)
            if stock:
                hand.append(stock.pop(0))
                assert next(lines) == {
                    "t": "event",
                    "e": "draw",
                    "seat": seat,
                    "card": str(hand[-1]),
                }
            assert sum(map(len, hands)) + len(table) + len(stock) + sum(map(len, got)) == 52
            cards = [len(g) for g in got]
            clubs = [sum(x.suit is Suit.CLUBS for x in g) for g in got]
            kon = [len(KONCHINKI & set(g)) for g in got]
            if not stock and not any(hands):
                break
            seat = (seat + 1) % n
            g, m = _bounds(cards, clubs, kon)
            sure = [
                i
                for i in range(n)
                if totals[i] + g[i] >= target
                and all(totals[i] + g[i] > totals[j] + m[j] for j in range(n) if j != i)
            ]
            if sure:  # §4.4.4
                assert next(lines) == {
                    "t": "event", "e": "certain", "seat": sure[0], "guaranteed": g, "possible": m
                }  # fmt: skip
                _check_deal_end(next(lines), deal_no, True, got, g, totals)
                _check_end(next(lines), "certain", sure[0], totals, deal_no, opts)
                return
        # §4.3.8
        assert next(lines) == {"t": "event", "e": "last_take", "seat": last, "cards": _canon(table)}
        if last is not None:
            got[last] += table
        cards = [len(g) for g in got]
        assert sum(cards) == (52 if last is not None else 52 - len(table))
        clubs = [sum(x.suit is Suit.CLUBS for x in g) for g in got]
        kon = [len(KONCHINKI & set(g)) for g in got]
        _check_deal_end(next(lines), deal_no, False, got, _points(cards, clubs, kon), totals)
        top = [s for s in range(n) if totals[s] == max(totals)]
        if max(totals) >= target and len(top) == 1:  # §4.4.3
            _check_end(next(lines), "target", top[0], totals, deal_no, opts)
            return
        dealer = (dealer + 1) % n


def _check_deal_end(
    line: dict[str, Any],
    no: int,
    early: bool,
    got: list[list[Card]],
    pts: list[int],
    totals: list[int],
) -> None:
    seats = []
    for s, g in enumerate(got):
        totals[s] += pts[s]
        seats.append(
            {
                "seat": s,
                "cards": len(g),
                "clubs": sum(x.suit is Suit.CLUBS for x in g),
                "konchinki": [k for k in ("2C", "10D") if Card.parse(k) in g],
                "points": pts[s],
                "total": totals[s],
            }
        )
    assert line == {"t": "deal_end", "no": no, "early": early, "seats": seats}


def _check_end(
    line: dict[str, Any], reason: str, winner: int, totals: list[int], deals: int, o: dict[str, Any]
) -> None:
    n = len(totals)
    if o["payment"] == "pot":
        net = [-o["stake"]] * n
        net[winner] = (n - 1) * o["stake"]
    else:
        owed = [max(0, o["target"] - t) * o["point_value"] if s != winner else 0
                for s, t in enumerate(totals)]  # fmt: skip
        net = [-x for x in owed]
        net[winner] = sum(owed)
    assert line == {
        "t": "end", "reason": reason, "winner": winner, "totals": totals, "deals": deals,
        "payment": o["payment"], "net": net,
    }  # fmt: skip
    assert sum(net) == 0


def _conserved(state: KonchinkaState) -> None:
    places = [*state._table, *state._stock, *(x for h in state._hands for x in h)]
    places += [x for g in state._captured for x in g]
    assert len(places) == len(set(places))
    if not state.is_over:  # at the very end, a table nobody captured goes to nobody (§4.3.8)
        assert len(places) == 52


def _play(players: int, seed: int, options: dict[str, object], *, steps: bool) -> list[Any]:
    state = new_game("konchinka", players, seed, options)
    assert isinstance(state, KonchinkaState)
    pick = random.Random(f"konchinka:{seed}")
    while state.to_act is not None:
        seat = state.to_act
        legal = state.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        action = pick.choice(legal)
        assert state.parse_action(str(action)) == action
        state.apply(seat, str(action) if pick.random() < 0.5 else action)
        if steps:
            _conserved(state)
    record = state.record()
    referee(record)
    assert replay(record).record() == record
    assert state.result is not None and list(state.result.net) == record[-1]["net"]
    return record


CASES = [
    (n, court, payment)
    for n in (2, 3, 4)
    for court in (False, True)
    for payment in ("mushka", "pot")
]


@pytest.mark.parametrize(("players", "court", "payment"), CASES)
def test_random_playouts_pass_the_referee(players: int, court: bool, payment: str) -> None:
    for k in range(6):
        target = (5, 15)[k % 2]
        options: dict[str, object] = {"court_values": court, "payment": payment, "target": target}
        _play(players, 7000 + 100 * players + k, options, steps=k < 2)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_playouts_pass_the_referee(players: int) -> None:
    for seed in range(300):
        court = seed % 2 == 0
        _play(players, seed, {"court_values": court, "target": 5 + seed % 20}, steps=True)


def test_4_4_3_tie_at_target_means_another_deal() -> None:
    for seed in range(400):
        record = _play(2, seed, {"target": 5}, steps=False)
        ends = [x for x in record if x["t"] == "deal_end"]
        for before, after in pairwise(ends):
            totals = [s["total"] for s in before["seats"]]
            if max(totals) >= 5 and totals.count(max(totals)) > 1:
                assert after["no"] == before["no"] + 1
                return
    raise AssertionError("no tie at the target in 400 games")


def test_4_4_2_dealer_passes_left_each_deal() -> None:
    record = _play(3, 11, {"target": 15}, steps=False)
    dealers = [x["dealer"] for x in record if x["t"] == "deal"]
    first = record[1]["first_dealer"]
    assert len(dealers) > 1
    assert dealers == [(first + k) % 3 for k in range(len(dealers))]


def test_0_8_series_continues_left_of_the_last_dealer() -> None:
    state = new_game("konchinka", 4, 3, prev_dealer=3)
    assert state.record()[1] == {
        "t": "seats", "players": 4, "by": "series", "draw": [], "prev_dealer": 3, "first_dealer": 0
    }  # fmt: skip
    assert state.to_act == 1


def test_0_11_abandoned_mid_deal_settles_nothing() -> None:
    state = new_game("konchinka", 3, 5)
    for _ in range(7):
        seat = state.to_act
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[-1])
    assert state.abandon()[0] == {"t": "end", "reason": "abandoned", "net": [0, 0, 0]}
    assert state.is_over
    with pytest.raises(IllegalAction) as again:  # every game refuses a second abandon alike
        state.abandon()
    assert again.value.code is Refusal.GAME_OVER
    record = state.record()
    referee(record)
    assert replay(record).record() == record


def test_clone_is_independent() -> None:
    state = new_game("konchinka", 2, 9)
    copy = state.clone()
    seat = state.to_act
    assert seat is not None
    state.apply(seat, state.legal_actions(seat)[0])
    assert copy.version == 0 and len(copy.record()) < len(state.record())
    copy.apply(seat, copy.legal_actions(seat)[0])
    assert copy.record() == state.record()


GOLDEN_FILES = ["konchinka-2p-target5.jsonl", "konchinka-4p-court-pot.jsonl"]


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_golden_records_replay_identically(name: str) -> None:
    records = read_records(GOLDEN / name)
    assert records
    for record in records:
        referee(record)
        assert replay(record).record() == record
