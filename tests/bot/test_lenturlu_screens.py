"""RULES.md §3, PRODUCT.md §5, §14: Лентюрлю's screens.

Golden screens, rendered from states replayed from the records and compared with
``tests/golden/render/{ru,en}/lenturlu_*.txt``: the table during play and after a stop, the hand
in each mode (the first tap, the second tap with ◀, a middle rank to choose, a buy), the table as
the deal ended, the deal's result and the final result. Regenerate after an intended change with
``UPDATE_GOLDEN=1 pytest tests/bot/test_lenturlu_screens.py``.

Privacy: over seeded random deals (3–8 players) the group's screens never name a card of a hand
or the stock, and a hand never names a card of another seat's hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues, Translator
from bot.presses import lenturlu as lp
from bot.presses.meaning import HandUI
from bot.render.cards import card_name
from bot.render.games.lenturlu.screen import LENTURLU_UI
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.cards import Card
from engine.core import Line, Places
from engine.games import new_game
from engine.lenturlu.view import LenturluView
from engine.players import policy_for
from engine.record import read_records, replay
from tests.bot.golden import assert_golden, prefixes, screen_context, show
from tests.engine.test_lenturlu import fixed as fixed_deal

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "render"
KING = ROOT / "tests" / "golden" / "records" / "lenturlu-3p-king.jsonl"
SIX = ROOT / "tests" / "golden" / "records" / "lenturlu-6p-out-cards.jsonl"
SIMULATED = ROOT / "tests" / "golden" / "simulated" / "lenturlu.jsonl"
CATALOGUES = Catalogues.load(ROOT / "locales")
TRANSLATORS = [CATALOGUES.tr("ru"), CATALOGUES.tr("en")]
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя"),
    "en": ("Anya", "Boris", "Vera", "Gleb", "Dina", "Egor", "Jane", "Zoe"),
}
UI = LENTURLU_UI
ANY_UI: Any = UI  # the privacy test's states are typed State: their views are generic


Test = Callable[[list[Line], LenturluView], bool]


def first(path: Path, test: Test) -> tuple[list[Line], Any]:
    for lines, state in prefixes(path):
        if state.to_act is not None and test(lines, state.view(state.to_act)):
            return lines, state
    raise AssertionError("no such state")


def last_wrote(lines: list[Line]) -> list[Line]:
    acts = [i for i, ln in enumerate(lines) if ln.get("t") == "act"]
    return lines[acts[-1] + 1 :] if acts else []


def playing(lines: list[Line], view: LenturluView) -> bool:
    """A follow with money moved on the layout and a pass made."""
    return not view.leading and view.passes > 0 and any(view.money) and view.set_aside > 0


def stopped(lines: list[Line], view: LenturluView) -> bool:
    return any(ln.get("e") == "stop" for ln in last_wrote(lines))


def long_start(view: LenturluView) -> Card | None:
    """A card a run may start with and go on from (a second tap is asked)."""
    return next((c for c in lp.starts(view) if lp.reach(view.hand, c) > lp.value(c)), None)


def middle(view: LenturluView) -> tuple[Card, Card] | None:
    """A run's first and last card with a middle rank the hand holds twice or more."""
    for c in lp.starts(view):
        top = lp.reach(view.hand, c)
        last = next(x for x in reversed(lp.order(view.hand)) if lp.value(x) == top)
        if top > lp.value(c) and lp.open_rank(view.hand, [c, last]):
            return c, last
    return None


def follows(lines: list[Line], view: LenturluView) -> bool:
    return not view.leading and long_start(view) is not None and view.stock > 0


def chooses(lines: list[Line], view: LenturluView) -> bool:
    return middle(view) is not None


def buys(lines: list[Line], view: LenturluView) -> bool:
    kinds, _ = lp.legal_kinds(view.legal)
    return not lp.may_run(view) and bool(kinds) and any(view.layout[i][1] for i in range(5))


def tapped(view: LenturluView) -> HandUI:
    card = long_start(view)
    assert card is not None
    return HandUI((str(card),), "r")


def chosen(view: LenturluView) -> HandUI:
    pair = middle(view)
    assert pair is not None
    return HandUI(tuple(str(c) for c in pair), "m")


HANDS: dict[str, tuple[Path, Test, Callable[[LenturluView], HandUI]]] = {
    "lenturlu_hand_first_tap": (SIX, follows, lambda view: HandUI()),
    "lenturlu_hand_second_tap": (SIX, follows, tapped),
    "lenturlu_hand_middle": (SIX, chooses, chosen),
    "lenturlu_hand_buy": (SIX, buys, lambda view: HandUI()),
}
TABLES: dict[str, tuple[Path, Test]] = {
    "lenturlu_table": (SIX, playing),
    "lenturlu_table_stop": (SIMULATED, stopped),
}


def ending(path: Path, game: int) -> tuple[list[Line], list[Line], Any, Any]:
    """The deal's last action: the lines before it, what it wrote, the state before and after."""
    lines = read_records(path)[game]
    i = max(i for i, ln in enumerate(lines) if ln.get("t") == "act")
    wrote = lines[i:]
    events = [{k: v for k, v in w.items() if k != "deck"} for w in wrote]
    return lines[:i], events, replay(lines[:i]), replay(lines)


ENDINGS = {"lenturlu_end_king": (KING, 1), "lenturlu_end_out": (SIX, 0)}


def screen(name: str, locale: str) -> str:
    tr = CATALOGUES.tr(locale)
    if name in HANDS:
        path, test, ui = HANDS[name]
        lines, state = first(path, test)
        ctx = screen_context("lenturlu", lines, NAMES[locale][: state.players], locale)
        view = state.view(state.to_act)
        other = (state.to_act + 1) % state.players
        return (
            show(UI.hand(ctx, view, ui(view), tr, CODEC))
            + "\n"
            + show(UI.hand(ctx, state.view(other), HandUI(), tr, CODEC))
        )
    if name in TABLES:
        lines, state = first(*TABLES[name])
        return show(
            UI.table(
                screen_context("lenturlu", lines, NAMES[locale][: state.players], locale),
                state.view(None),
                tr,
            )
        )
    before_lines, events, before, after = ending(*ENDINGS[name])
    ctx = screen_context("lenturlu", before_lines, NAMES[locale][: before.players], locale)
    end = next(e for e in events if e.get("t") == "end")
    return "\n".join(
        [
            show(UI.ended_table(ctx, before.view(None), events, tr)),
            show(UI.deal_result(ctx, events, after.view(None), tr)),
            show(UI.match_result(ctx, end, end.get("winner"), Standings(), 1, tr, CODEC)),
            show(UI.hand(ctx, after.view(0), HandUI(), tr, CODEC)),
        ]
    )


SCREENS = [*TABLES, *HANDS, *ENDINGS]


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", SCREENS)
def test_lenturlu_golden_screen(name: str, locale: str) -> None:
    assert_golden(name, locale, screen(name, locale))


# --- privacy -----------------------------------------------------------------------------------


def text_of(rendered: Rendered | str) -> str:
    if isinstance(rendered, str):
        return rendered
    rows = rendered.markup.inline_keyboard if rendered.markup else []
    return "\n".join([rendered.text, *(b.text for row in rows for b in row)])


def hides(text: str, hidden: set[Card], tr: Translator) -> list[str]:
    return sorted(str(c) for c in hidden if card_name(c, tr.locale) in text)


def hidden(places: Places) -> set[Card]:
    """Cards in a hand or the stock: nobody may see them on the group's screens."""
    return {c for p, cs in places.items() if p.startswith("hand") or p == "stock" for c in cs}


def allowed(view: LenturluView) -> set[Card]:
    """Cards the group may see named: the five stake cards and the pile (public)."""
    return {c for c, _ in view.layout} | set(view.pile)


@pytest.mark.parametrize("seed", range(12))
def test_lenturlu_privacy(seed: int) -> None:
    players = 3 + seed % 6
    options = {
        "manner": ("king", "out")[seed % 2],
        "payment": ("points", "cards", "fixed")[seed % 3],
    }
    state: Any = new_game("lenturlu", players, seed, options)
    policy = policy_for("lenturlu")
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    for step in range(600):
        ctx = TableContext(7, "lenturlu", "Club", names, 1, step, "mushka_test_bot", options)
        places = state.places()
        public = state.view(None)
        secret = hidden(places) - allowed(public)
        tr = TRANSLATORS[step % 2]
        assert not hides(text_of(ANY_UI.table(ctx, public, tr)), secret, tr)
        for seat in range(players):
            mine = state.view(seat)
            own = set(places.get(f"hand{seat}", ()))
            others = {
                c
                for p, cs in places.items()
                if p.startswith("hand") and p != f"hand{seat}"
                for c in cs
            } | set(places.get("stock", ()))
            others -= allowed(public)
            uis = [HandUI()]
            if seat == state.to_act and (card := long_start(mine)) is not None:
                uis.append(HandUI((str(card),), "r"))
            for ui in uis:
                text = text_of(ANY_UI.hand(ctx, mine, ui, tr, CODEC))
                assert not hides(text, others, tr), (seat, ui)
            assert own <= set(mine.hand)
        if state.is_over or state.to_act is None:
            return
        seat = state.to_act
        action = policy(state.view(seat), rng)
        lines = state.apply(seat, action)
        events = [{k: v for k, v in ln.items() if k != "deck"} for ln in lines]
        after = state.places()
        # the run just played is face up; the rest of every hand stays hidden
        run_cards = set(getattr(action, "cards", ()))
        ended_secret = hidden(places) - allowed(public) - run_cards
        after_secret = hidden(after) - allowed(state.view(None))
        if any(ln.get("t") == "deal_end" for ln in events):
            text = text_of(ANY_UI.ended_table(ctx, public, events, tr))
            assert not hides(text, ended_secret, tr)
            result = ANY_UI.deal_result(ctx, events, state.view(None), tr)
            # §3.5.2: each loser's hand is shown with what it pays (the deal_end line's own)
            end_line = next(ln for ln in events if ln.get("t") == "deal_end")
            paid_from = {
                Card.parse(c)
                for s in end_line["seats"]
                if s["seat"] != end_line["winner"]
                for c in s["hand"]
            }
            assert not hides(result, ended_secret - paid_from, tr)
        end = next((ln for ln in events if ln.get("t") == "end"), None)
        if end is not None:
            text = text_of(
                ANY_UI.match_result(ctx, end, end.get("winner"), Standings(), 1, tr, CODEC)
            )
            assert not hides(text, after_secret, tr)
            return
    raise AssertionError("the deal did not end")


# --- who set the pile aside (RULES.md §3.4.1, §3.4.2) ------------------------------------------


def test_lenturlu_table_names_who_stopped_or_closed() -> None:
    """After a stop or a closing K the table names the player, who leads the new pile; the
    line goes once a run is played on it (seeded deals, both manners, 3–5 players)."""
    policy = policy_for("lenturlu")
    tr = CATALOGUES.tr("en")
    seen: dict[str, int] = {"stop": 0, "close": 0}
    for seed in range(12):
        players = 3 + seed % 3
        options = {"manner": ("king", "out")[seed % 2]}
        state: Any = new_game("lenturlu", players, seed, options)
        rng = random.Random(seed)
        names = tuple(f"P{i}" for i in range(players))
        ctx = TableContext(7, "lenturlu", "Club", names, 1, 0, "mushka_test_bot", options)
        while not state.is_over and state.to_act is not None:
            seat = state.to_act
            events = state.apply(seat, policy(state.view(seat), rng))
            if state.is_over:
                break
            text = UI.table(ctx, state.view(None), tr).text
            how = {e.get("e") for e in events} & {"stop", "close"}
            if how:
                (kind,) = how
                line = {"stop": "Stop: {}", "close": "Closed with a king: {}"}[kind]
                assert line.format(names[state.to_act]) + " — " in text, text
                assert f"To play: <b>{names[state.to_act]}</b> · a new pile" in text, text
                seen[kind] += 1
            else:
                assert "Stop:" not in text and "Closed with a king:" not in text, text
    assert all(seen.values()), seen


# --- the A♠'s stake (RULES.md §3.4.6) -----------------------------------------------------------


@pytest.mark.parametrize(("manner", "marked"), [("king", False), ("out", True)])
def test_3_4_6_the_hand_marks_the_as_stake_only_while_a_lead_takes_it(
    manner: str, marked: bool
) -> None:
    """💰 marks a card whose play takes money: in Manner A the A♠ only on the deal's first lead."""
    tr = CATALOGUES.tr("en")
    state = fixed_deal(3, 2, ["QD KD AS 2S 8C"], manner=manner)
    ctx = TableContext(7, "lenturlu", "Club", ("P0", "P1", "P2"), 1, 0, "mushka_test_bot")
    first = UI.hand(ctx, state.view(0), HandUI(), tr, CODEC)
    assert "A♠💰" in show(first)
    state.apply(0, "run QD KD")  # a led king: the same player leads again (§3.4.2)
    later = show(UI.hand(ctx, state.view(0), HandUI(), tr, CODEC))
    assert ("A♠💰" in later) is marked and "A♠" in later
