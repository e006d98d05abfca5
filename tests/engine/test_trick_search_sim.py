"""The trick search's inner simulator (:mod:`engine.players.trick_search`) against the engine.

Random mid-play positions of all four games, every seat count and both ``must_trump``: the
engine's deal is read into a :class:`~engine.players.trick_search.Deal` the way the normal
player builds one (the cards played so far replayed from the first lead, RULES.md §1.4.1), then
both play on with the same random choices. At every step the seat to act and the legal cards
(§1.4.3, §1.4.4) must agree, at every trick its winner (§1.4.5), and at the end every playing
seat's count after the deal (§1.5.2–§1.5.7).
"""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.actions import PlayCard
from engine.players import computer
from engine.players.determinized import Work
from engine.players.trick_declare import dealt
from engine.players.trick_reading import from_left
from engine.players.trick_sample import CODE
from engine.players.trick_search import (
    KnownDeal,
    after,
    new_deal,
    playout,
    table_for,
    utility,
)
from engine.trick.rules import TrickPhase
from engine.trick.state import TrickState
from engine.trick.variant import VARIANTS, deck_for

GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
SEATS = (3, 4, 5, 6, 7)


def _in_play(game: str, players: int, seed: int, must_trump: bool) -> TrickState:
    """Easy play to a random point of the trick play of some deal (0 … 5n − 1 cards in)."""
    rng = random.Random(seed)
    options = {"must_trump": must_trump}
    for attempt in range(50):
        state = new_game(game, players, seed * 100 + attempt, options)
        assert isinstance(state, TrickState)
        easy = computer(game, "easy")
        cut = None
        while state.to_act is not None:
            view = state.view(state.to_act)
            if view.phase == TrickPhase.PLAY:
                if cut is None:
                    cut = rng.randrange(HAND * len(state._playing))
                if cut == 0:
                    return state
                cut -= 1
            state.apply(state.to_act, easy(view, rng))
    raise AssertionError("no trick play reached")


HAND = 5


def _sim(state: TrickState) -> KnownDeal:
    """The engine's deal on the simulator, built as :func:`trick_normal._play` builds it."""
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    code = CODE[state.game]
    table = table_for(state.game, state.trump, state.options.must_trump)
    playing = [s for s in from_left(view) if view.declared[s] == "play"]
    assert playing == state._playing
    played = [(s, code[c]) for t in view.tricks for s, c in t] + [
        (s, code[c]) for s, c in view.trick
    ]
    hands = [[code[c] for c in h] for h in state._hands]
    deal = new_deal(table, state.players, playing, hands, view.counts, view.target, None, played)
    held = next((s for s, c in played if c == table.priv), None)
    if held is None:
        held = next((s for s in playing if table.priv in deal.hands[s]), None)
    deal.held = held
    return deal


def _check_position(game: str, players: int, seed: int, must_trump: bool) -> None:
    state = _in_play(game, players, seed, must_trump)
    deal = _sim(state)
    code = CODE[game]
    assert deal.held == state._held  # §1.5.1
    assert deal.winners() == [t.winner for t in state._tricks]
    deal_no = state.deal_no
    rng = random.Random(seed)
    while not deal.over:
        seat = state.to_act
        assert seat is not None and state.deal_no == deal_no
        assert deal.to_play() == seat  # §1.4.1, §1.4.8
        engine = sorted(code[a.card] for a in state.legal_actions(seat) if isinstance(a, PlayCard))
        sim = sorted(deal.legal(seat))
        assert sim == engine, (game, players, seed, must_trump, state._trick_no)  # §1.4.3
        card = sim[rng.randrange(len(sim))]
        tricks = len(state._tricks)
        state.apply(seat, PlayCard(next(c for c in state._hands[seat] if code[c] == card)))
        deal.play(seat, card)
        if state.deal_no == deal_no and len(state._tricks) > tricks:
            assert deal.winners()[-1] == state._tricks[-1].winner  # §1.4.5
    assert deal.playing  # (the engine's own list is gone with the deal)
    for s in deal.playing:  # §1.5.2–§1.5.7: the counts after the deal
        assert after(deal, s) == state.counts[s], (game, players, seed, must_trump, s)
        value = utility(deal, s)
        assert value == (-after(deal, s) if after(deal, s) else sum(deal.counts) - deal.counts[s])


def _check_playout(game: str, players: int, seed: int, must_trump: bool) -> None:
    """:func:`playout` (which plays whole tricks in one go) from the same position: its cards
    are legal in the engine, and the winners and counts after the deal are the engine's."""
    state = _in_play(game, players, seed, must_trump)
    deal = _sim(state)
    code = CODE[game]
    start = len(deal.past)
    in_trick = len(deal.trick)
    work = Work()
    playout(deal, work)
    line = [
        (s, c)
        for _, seats, trick, _, _ in deal.past[start:]
        for s, c in zip(seats, trick, strict=True)
    ]
    line = line[in_trick:]  # the cards of the trick in play already played
    assert work.done == len(line)
    deal_no = state.deal_no
    for seat, card in line:
        assert state.to_act == seat and state.deal_no == deal_no
        state.apply(seat, PlayCard(next(c for c in state._hands[seat] if code[c] == card)))
    records = [r for r in state.record() if r["t"] == "event" and r["e"] == "trick"][-HAND:]
    assert [r["winner"] for r in records] == deal.winners()  # §1.4.5
    for s in deal.playing:  # §1.5.2–§1.5.7
        assert after(deal, s) == state.counts[s], (game, players, seed, must_trump, s)


@pytest.mark.parametrize("must_trump", [False, True])
@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("game", GAMES)
def test_1_4_1_4_5_1_5_simulator_plays_as_the_engine(
    game: str, players: int, must_trump: bool
) -> None:
    for seed in range(10):
        _check_position(game, players, seed, must_trump)
        _check_playout(game, players, seed, must_trump)


@pytest.mark.slow
@pytest.mark.parametrize("must_trump", [False, True])
@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("game", GAMES)
def test_simulator_plays_as_the_engine_soak(game: str, players: int, must_trump: bool) -> None:
    for seed in range(10, 200):
        _check_position(game, players, seed, must_trump)
        _check_playout(game, players, seed, must_trump)


def test_simulator_undo_restores_the_deal() -> None:
    """The search's take-back: every play undone leaves the deal as it was."""
    for seed in range(40):
        game = GAMES[seed % 4]
        deal = _sim(_in_play(game, 3 + seed % 5, seed, seed % 2 == 0))
        rng = random.Random(seed)
        line: list[tuple[int, int, bool, tuple[int, int, int]]] = []
        before = deal.copy()
        while not deal.over:
            seat = deal.to_play()
            card = rng.choice(deal.legal(seat))
            was = deal.led, deal.wkey, deal.wseat
            line.append((seat, card, deal.play(seat, card), was))
        for seat, card, completed, was in reversed(line):
            deal.retract(seat, card, completed, *was)
        for name in KnownDeal.__slots__:
            got, want = getattr(deal, name), getattr(before, name)
            if name == "hands":
                got, want = [sorted(h) for h in got], [sorted(h) for h in want]
            if name in ("led", "wkey", "wseat") and not deal.trick:
                continue  # meaningless between tricks
            assert got == want, name


def test_1_3_12_the_deal_out_is_the_engines() -> None:
    """Шутиха's deal-out on a sample deals the cards the engine deals, to the same seats."""
    variant = VARIANTS["shutikha"]
    assert variant.deal_out is not None
    code = CODE["shutikha"]
    priv = code[variant.privileged]
    rng = random.Random(3)
    for players in SEATS:
        for _ in range(50):
            deck = list(deck_for(players))
            rng.shuffle(deck)
            stock = deck[: rng.randrange(1, 15)]
            playing = sorted(rng.sample(range(players), rng.randrange(2, players + 1)))
            engine = [(s, code[c]) for s, c in variant.deal_out(stock, playing)]
            assert dealt(priv, [code[c] for c in stock], playing) == engine
