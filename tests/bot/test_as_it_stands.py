"""A match closed early, as it stands: each family's money so far from its record's
deals played, checked against the engine's own settlement where the two must agree (Копилка's
partia settled after its last deal, the trick family's side ledger and counts, Кончинка's
points), and the places that money gives, ties shared."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from bot.runtime.as_it_stands import money_so_far, places_by, played_deals
from engine.core import Line
from engine.games import new_game
from engine.lines import LineKind, is_kind, last


def played(game: str, players: int, seed: int, options: Mapping[str, object]) -> list[Line]:
    """One game of random legal actions to its end: its record."""
    state = new_game(game, players, seed, options)
    rng = random.Random(seed)
    for _ in range(20_000):
        seat = state.to_act
        if seat is None:
            return state.record()
        state.apply(seat, rng.choice(state.view(seat).legal))
    raise AssertionError(f"{game}: no end")


def before_end(lines: list[Line]) -> list[Line]:
    """The record as a close just before its last action would see it: the end line cut off."""
    assert is_kind(lines[-1], LineKind.END)
    return lines[:-1]


@pytest.mark.parametrize("seed", range(4))
def test_kopilka_money_so_far_after_its_last_deal_is_the_partia_settled(seed: int) -> None:
    lines = played("kopilka", 4, seed, {"ante": 5, "deal_fee": 2})
    end = last(lines, LineKind.END)
    assert end is not None
    options = {"ante": 5, "deal_fee": 2}
    assert money_so_far("kopilka", options, before_end(lines)) == tuple(end["net"])
    first_deal = lines[: next(i for i, ln in enumerate(lines) if is_kind(ln, LineKind.DEAL_END))]
    assert money_so_far("kopilka", options, first_deal) is None  # no deal over: no standing
    after_one = list(played_deals([*first_deal, lines[len(first_deal)]]))
    money = money_so_far("kopilka", options, after_one)
    assert money is not None and sum(money) == 0  # the bank paid out now, less what went in


SIDE_PAID = {"pamfil": (8, 16), "mistigri": (7, 18)}  # seeds whose pulka paid side bonuses


@pytest.mark.parametrize("game", ["mushka", "pamfil", "shutikha", "mistigri"])
def test_trick_money_so_far_is_the_side_ledger_less_each_count_s_price(game: str) -> None:
    """At the deal that ended the pulka: the side ledger so far is the end line's (Памфил's
    announce bonus, Мистигри's flush bonus), and a count costs ``point_value`` a point — the
    pulka's price of it at the settlement (§1.6.1)."""
    options = {"target": 6, "point_value": 3}
    for seed in (0, 1, *SIDE_PAID.get(game, ())):
        lines = played(game, 4 if game != "pamfil" else 3, seed, options)
        end = last(lines, LineKind.END)
        assert end is not None
        assert any(end["side"]) == (seed in SIDE_PAID.get(game, ()))
        want = tuple(s - 3 * c for s, c in zip(end["side"], end["counts"], strict=True))
        assert money_so_far(game, options, before_end(lines)) == want


def test_konchinka_money_so_far_is_its_points_and_lenturlu_never_has_any() -> None:
    lines = played("konchinka", 3, 2, {})
    end = last(lines, LineKind.END)
    assert end is not None
    assert money_so_far("konchinka", {}, before_end(lines)) == tuple(end["totals"])
    whole = played("lenturlu", 4, 2, {})
    assert money_so_far("lenturlu", {}, before_end(whole)) is None  # one deal is the game


def test_places_by_money_share_ties() -> None:
    assert places_by((5, 3, 5, -1)) == (1, 3, 1, 4)
    assert places_by((0, 0, 0)) == (1, 1, 1)
