"""The facts a hint names (engine/players/facts.py) are true of the seat's view: for Копилка,
Лентюрлю and Кончинка, over many seeded states and every legal action (a sample of the runs),
each fact is checked against the hand and the table — or against what the engine does when the
action is applied — and every fact of each family is met at least once. The money a Копилка or
Лентюрлю hint counts is what the search adds to the money the seat holds now."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine import new_game
from engine.actions import Buy, Pass
from engine.cards import A_HIGH, RANK_VALUE, Rank, Suit, rank_index
from engine.konchinka.actions import Capture, Sweep, Trail
from engine.konchinka.rules import KONCHINKI
from engine.konchinka.view import KonchinkaView
from engine.kopilka.rules import ACE_OF_SPADES
from engine.kopilka.view import KopilkaView
from engine.lenturlu.actions import Run
from engine.lenturlu.rules import KING_VALUE, able, follow_value
from engine.lenturlu.view import LenturluView
from engine.players import computer, kopilka, lenturlu, random_player
from engine.players.advice import Unit, advise, kopilka_now
from engine.players.facts import Fact, facts
from engine.players.kopilka_rollout import worth
from engine.players.kopilka_sim import KopilkaTable

STATES = 60
"""Seeded states per family (bounded: a few seconds in all)."""
ACTIONS = 30
"""Legal actions checked per state at most (a seeded sample of Лентюрлю's many runs)."""

KOPILKA = frozenset(
    {
        Fact.ACE_OF_SPADES,
        Fact.ACE_DOUBLES,
        Fact.TAKES_FOR_NOW,
        Fact.STAYS_UNDER,
        Fact.DEAR_TRICK,
        Fact.CHEAP_TRICK,
        Fact.HIGHEST_OF_SUIT,
        Fact.LOWEST_OF_SUIT,
        Fact.LAST_CARD,
        Fact.NO_CARD_OF_SUIT,
        Fact.PASS_FINE,
    }
)
LENTURLU = frozenset(
    {Fact.TAKES_STAKE, Fact.WINS_DEAL, Fact.CLOSES_PILE, Fact.LONGEST_RUN, Fact.CANNOT_FOLLOW}
)
KONCHINKA = frozenset(
    {
        Fact.TAKES_KONCHINKA,
        Fact.TAKES_CLUBS,
        Fact.TAKES_SEVERAL,
        Fact.CLEARS_TABLE,
        Fact.NOTHING_TO_TAKE,
        Fact.GIVES_LITTLE,
        Fact.COURT_CARD,
    }
)
STRENGTH = rank_index(A_HIGH)


def states(
    game: str, players: int, options: dict[str, object] | None = None
) -> Iterator[tuple[Any, int]]:
    """Seeded states of ``game`` at every stage, with the seat to act: played by the ``easy``
    computer and random moves alike, from 0 to 80 actions in."""
    easy = computer(game, "easy")
    for k in range(STATES):
        state = new_game(game, players, 700 + k, options)
        rng = random.Random(k)
        policy = easy if k % 2 else random_player
        for _ in range(rng.randrange(0, 80)):
            seat = state.to_act
            assert seat is not None
            before = state.clone()
            state.apply(seat, policy(state.view(seat), rng))
            if state.to_act is None:  # the game is over: the state before its last action
                state = before
                break
        seat = state.to_act
        assert seat is not None
        yield state, seat


def sample(view: Any, rng: random.Random) -> list[Any]:
    """Every legal action, or a seeded sample of them: the runs ending on a K or playing the
    whole hand (few among thousands) and as many others at random."""
    legal = list(view.legal)
    if len(legal) <= ACTIONS:
        return legal
    rare = [
        a
        for a in legal
        if isinstance(a, Run) and (a.cards[-1].rank is Rank.KING or len(a.cards) == len(view.hand))
    ]
    return rare[:ACTIONS] + rng.sample(legal, ACTIONS)


def after(state: Any, seat: int, action: Any) -> Any:
    """The seat's view once ``action`` is applied (the state itself untouched)."""
    other = state.clone()
    other.apply(seat, action)
    return other.view(seat)


def check_all(
    game: str,
    players: int,
    family: frozenset[Fact],
    check: Callable[[Any, int, Any, tuple[Fact, ...]], None],
    options: dict[str, object] | None = None,
) -> set[Fact]:
    """Check every fact said of the sampled actions; the facts met."""
    met: set[Fact] = set()
    rng = random.Random(1)
    for state, seat in states(game, players, options):
        view = state.view(seat)
        for action in sample(view, rng):
            said = facts(view, action)
            assert set(said) <= family, (action, said)
            assert len(set(said)) == len(said)
            check(state, seat, action, said)
            met |= set(said)
    return met


def kopilka_check(state: Any, seat: int, action: Any, said: tuple[Fact, ...]) -> None:
    view = state.view(seat)
    assert isinstance(view, KopilkaView)
    led = view.led_suit if view.trick else None
    if isinstance(action, Buy | Pass):
        holds = led is not None and any(c.suit is led for c in view.hand)
        assert (Fact.NO_CARD_OF_SUIT in said) == (led is not None and not holds)
        assert (Fact.PASS_FINE in said) == (isinstance(action, Pass) and holds)
        if Fact.PASS_FINE in said:  # the engine fines it
            assert after(state, seat, action).fines[seat] > view.fines[seat]
        return
    card = action.card
    suit = led or card.suit
    assert (Fact.ACE_OF_SPADES in said) == (card == ACE_OF_SPADES)
    assert (Fact.ACE_DOUBLES in said) == (
        card.rank is Rank.ACE and card.suit is suit and card != ACE_OF_SPADES
    )
    assert (Fact.DEAR_TRICK in said) == (suit in (Suit.HEARTS, Suit.DIAMONDS))
    assert (Fact.CHEAP_TRICK in said) == (suit in (Suit.SPADES, Suit.CLUBS))
    assert (Fact.LAST_CARD in said) == (len(view.hand) == 1)
    if not view.trick:
        assert Fact.TAKES_FOR_NOW not in said and Fact.STAYS_UNDER not in said
    else:  # the trick's best card once this one is in: the A♠, else the highest of the suit
        cards = [c for _, c in view.trick] + [card]
        best = max(
            cards,
            key=lambda c: (
                c == ACE_OF_SPADES and c is not cards[0],
                c.suit is led,
                STRENGTH[c.rank],
            ),
        )
        assert (Fact.TAKES_FOR_NOW in said) == (best == card)
        assert (Fact.STAYS_UNDER in said) == (best != card)
    same = [STRENGTH[c.rank] for c in view.hand if c.suit is card.suit]
    if Fact.HIGHEST_OF_SUIT in said:
        assert len(same) > 1 and STRENGTH[card.rank] == max(same)
    if Fact.LOWEST_OF_SUIT in said:
        assert len(same) > 1 and STRENGTH[card.rank] == min(same)


def lenturlu_check(state: Any, seat: int, action: Any, said: tuple[Fact, ...]) -> None:
    view = state.view(seat)
    assert isinstance(view, LenturluView)
    if isinstance(action, Buy | Pass):
        unable = view.top is not None and not able(view.hand, follow_value(view.top))
        assert said == ((Fact.CANNOT_FOLLOW,) if unable else ())
        return
    assert isinstance(action, Run)
    then = after(state, seat, action)
    over = then.result is not None
    assert (Fact.TAKES_STAKE in said) == any(s == seat for s, _, _ in then.takes[len(view.takes) :])
    assert (Fact.WINS_DEAL in said) == (over and then.result.winner == seat)
    assert (Fact.CLOSES_PILE in said) == (
        not over
        and then.leading
        and then.to_act == seat
        and not then.pile
        and RANK_VALUE[action.cards[-1].rank] == KING_VALUE
    )
    longest = max(len(r.cards) for r in view.legal if isinstance(r, Run))
    assert (Fact.LONGEST_RUN in said) == (1 < len(action.cards) == longest)


def konchinka_check(state: Any, seat: int, action: Any, said: tuple[Fact, ...]) -> None:
    view = state.view(seat)
    assert isinstance(view, KonchinkaView)
    if isinstance(action, Trail):
        card = action.card
        assert Fact.NOTHING_TO_TAKE in said
        assert not any(isinstance(a, Capture | Sweep) for a in view.legal)
        assert (Fact.GIVES_LITTLE in said) == (
            card.suit is not Suit.CLUBS and card not in KONCHINKI
        )
        assert (Fact.COURT_CARD in said) == (card.rank in (Rank.KING, Rank.QUEEN))
        return
    then = after(state, seat, action)
    same_deal = then.deal_no == view.deal_no and then.result is None
    taken = view.table if isinstance(action, Sweep) else tuple(action.taken)
    if same_deal:  # the haul as the engine counts it
        assert (Fact.TAKES_KONCHINKA in said) == (
            len(then.konchinki[seat]) > len(view.konchinki[seat])
        )
        clubs = then.clubs[seat] - view.clubs[seat] - (action.card.suit is Suit.CLUBS)
        assert (Fact.TAKES_CLUBS in said) == (clubs > 0)
        assert (Fact.CLEARS_TABLE in said) == (not then.table)
    else:
        assert (Fact.TAKES_KONCHINKA in said) == any(c in KONCHINKI for c in (*taken, action.card))
        assert (Fact.CLEARS_TABLE in said) == (len(taken) == len(view.table))
    assert (Fact.TAKES_SEVERAL in said) == (2 <= len(taken) < len(view.table))


def test_kopilka_facts_are_true_of_the_view_and_every_one_is_met() -> None:
    met = check_all("kopilka", 4, KOPILKA, kopilka_check, {"hold_pass": True})
    assert met == KOPILKA, KOPILKA - met


def test_lenturlu_facts_are_true_of_the_view_and_every_one_is_met() -> None:
    """Both manners: a king ends the deal played onto a pile, or only closes it."""
    met = check_all("lenturlu", 4, LENTURLU, lenturlu_check)
    met |= check_all("lenturlu", 4, LENTURLU, lenturlu_check, {"manner": "out"})
    assert met == LENTURLU, LENTURLU - met


def test_konchinka_facts_are_true_of_the_view_and_every_one_is_met() -> None:
    met = check_all("konchinka", 2, KONCHINKA, konchinka_check)
    assert met == KONCHINKA, KONCHINKA - met


@pytest.mark.parametrize(("game", "players"), [("kopilka", 4), ("lenturlu", 4)])
def test_a_money_hint_is_the_search_s_mean_less_the_money_held_now(game: str, players: int) -> None:
    """The search values a deal's end with the money already paid or taken (the stakes, the
    bank's payment, fines); the hint's value is what the rest of the deal brings: the two
    parts add up to the search's mean, and the part held now is the search's own reckoning."""
    search = kopilka.hard_scores if game == "kopilka" else hard_lenturlu
    checked = 0
    for state, seat in states(game, players):
        view = state.view(seat)
        if len(view.legal) < 2 or checked == 4:
            continue
        checked += 1
        advice = advise(view, 3)
        assert advice.unit is Unit.MONEY
        if isinstance(view, KopilkaView):
            held = kopilka_now(view, seat)
            world = KopilkaTable(view).consistent(random.Random(1))
            # a world as it stands now, this deal's points counted as its end counts them
            world.partia = [p + q for p, q in zip(world.partia, world.points, strict=True)]
            assert worth(world, seat) == pytest.approx(held)
        else:
            held = float(view.money[seat])
            assert held < 0  # every seat staked: the search's net counts it
        scored = search(view, random.Random(3))
        means = scored.means()
        for choice in advice.choices:
            mean = means[scored.actions.index(choice.action)]
            assert choice.value + held == pytest.approx(mean)
    assert checked == 4


def hard_lenturlu(view: Any, rng: random.Random) -> Any:
    return lenturlu.scores(view, rng, lenturlu.HARD)
