"""RULES.md §3.2.1, §3.3: every legal action of the seat to act is reachable by pressing the
hand's buttons (parsed with the codec, read by ``interpret``, SetUI kept as the runtime keeps it),
and nothing illegal is ever returned as Apply — for random states, 20-card hands included."""

from __future__ import annotations

import random
from pathlib import Path

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.families import FAMILY_PRESSES
from bot.presses.meaning import Apply, Deny, HandUI, ModeKind, SetUI
from bot.render.games.lenturlu.screen import LENTURLU_UI
from bot.render.table_context import TableContext
from engine.actions import Buy, Pass
from engine.games import new_game
from engine.lenturlu.actions import LenturluAction, Run
from engine.lenturlu.state import LenturluState
from engine.lenturlu.view import LenturluView
from engine.players import random_action

ROOT = Path(__file__).resolve().parents[2]
TR = Catalogues.load(ROOT / "locales").tr("en")
CODEC = PressCodec.from_token("123456:TEST-token")
PRESSES = FAMILY_PRESSES["lenturlu"]
UI = LENTURLU_UI


def reachable(state: LenturluState, seat: int) -> tuple[set[str], int]:
    """Every action the presses reach from a fresh hand message, and the most buttons seen."""
    view = state.view(seat)
    names = tuple(f"P{i}" for i in range(state.players))
    ctx = TableContext(7, "lenturlu", "Chat", names, 1, state.version, "b", {"rate": 1})
    legal = set(view.legal)
    found: set[str] = set()
    most = 0
    todo = [HandUI()]
    seen = {HandUI()}
    while todo:
        ui = todo.pop()
        rendered = UI.hand(ctx, view, ui, TR, CODEC)
        assert rendered.markup is not None
        rows = rendered.markup.inline_keyboard
        count = sum(len(r) for r in rows)
        most = max(most, count)
        assert count <= 100 and all(len(r) <= 8 for r in rows)
        for row in rows:
            for b in row:
                if b.disabled:  # an unplayable card: a button that does nothing (no press)
                    assert b.callback_data is None
                    continue
                press = CODEC.parse(b.callback_data or "")
                assert press is not None and press.seat == seat
                meaning = PRESSES.interpret(view, press.act, press.arg, ui)
                if isinstance(meaning, Apply):
                    assert meaning.action in legal, meaning.action
                    found.add(str(meaning.action))
                elif isinstance(meaning, SetUI) and meaning.ui not in seen:
                    seen.add(meaning.ui)
                    todo.append(meaning.ui)
                else:
                    assert isinstance(meaning, Deny | SetUI)
    return found, most


def lenturlu(players: int, seed: int) -> LenturluState:
    state = new_game("lenturlu", players, seed)
    assert isinstance(state, LenturluState)
    return state


def hoard(view: LenturluView) -> LenturluAction:
    """Seat 0 buys all it can; the others pass or play short: seat 0's hand grows to 20+."""
    legal = view.legal
    buys = [a for a in legal if isinstance(a, Buy)]
    runs = [a for a in legal if isinstance(a, Run)]
    if view.seat == 0 and buys:
        return max(buys, key=lambda b: b.k)
    if Pass() in legal:
        return Pass()
    if runs:
        return min(runs, key=lambda r: len(r.cards))
    return min(buys, key=lambda b: b.k)


def check_game(seed: int, players: int, greedy: bool) -> int:
    """Play one deal; at every turn check reachability. ``greedy``: buy whenever possible."""
    rng = random.Random(seed)
    state = lenturlu(players, seed)
    biggest = 0
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        found, _ = reachable(state, seat)
        assert found == {str(a) for a in view.legal}
        biggest = max(biggest, len(view.hand))
        action = hoard(view) if greedy else random_action(view.legal, rng)
        state.apply(seat, action)
    return biggest


def test_every_run_reachable_random_deals() -> None:
    for seed in range(6):
        check_game(seed, 3 + seed % 6, greedy=False)


def test_every_run_reachable_big_hands() -> None:
    """Three players are dealt 15; seat 0 buying the stock grows its hand to 20 and more."""
    biggest = max(check_game(seed, 3, greedy=True) for seed in (0, 1, 2))
    assert biggest >= 20


def test_suit_chosen_at_a_middle_rank() -> None:
    for seed in range(50):
        state = lenturlu(3, seed)
        seat = state.to_act
        view = state.view(seat)
        runs = [a for a in view.legal if isinstance(a, Run) and len(a.cards) >= 3]
        ambiguous = [r for r in runs if sum(1 for c in view.hand if c.rank == r.cards[1].rank) > 1]
        if not ambiguous:
            continue
        run = ambiguous[0]
        ui = HandUI()
        meaning = PRESSES.interpret(view, "f", str(run.cards[0]), ui)
        assert isinstance(meaning, SetUI) and meaning.ui.mode.kind is ModeKind.RUN_FIRST
        meaning = PRESSES.interpret(view, "l", str(run.cards[-1]), meaning.ui)
        assert isinstance(meaning, SetUI) and meaning.ui.mode.kind is ModeKind.RUN
        ui = meaning.ui
        for c in run.cards[1:-1]:
            m = PRESSES.interpret(view, "c", str(c), ui)
            if isinstance(m, Apply):
                assert m.action == run
                return
            if isinstance(m, SetUI):
                ui = m.ui
        assert PRESSES.interpret(view, "z", None, ui) != Apply(run)
        return
    raise AssertionError("no hand with a suit to choose")
