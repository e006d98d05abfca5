"""A finished game as one self-contained HTML file anyone can open (the ``.html`` beside a
record's ``.jsonl``): the table at every step with every hand shown — the game is over, nothing
is hidden any more —, stepped with ← → (Home, End) and ⏮ ◀ ▶ ⏭, a list of deals to jump to,
each step in the transcript's words (:func:`~bot.render.transcript.line_words`), each deal's
result and the final one; optionally the review's marks on the steps they concern.

Pure: record lines, names and a translator in, one HTML string out. The game is replayed by the
engine from the record alone (:func:`~engine.record.chance_of`); the page's data is embedded
once as JSON, ``<``, ``>`` and ``&`` escaped, so a name like ``</script>`` stays text; the page
draws it with ``textContent`` only. Inline CSS and JS, no URL at all (its Content-Security-Policy
forbids every fetch)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

from bot.game_names import game_name
from bot.i18n import Translator
from bot.render.action_words import action_parts, words_of
from bot.render.cards import rank_name
from bot.render.hint import amount
from bot.render.replay_page import PAGE_SCRIPT, PAGE_STYLE
from bot.render.review import shown_cost
from bot.render.transcript import line_words
from engine.cards import Card, Rank
from engine.core import Line, Places, State
from engine.events import Act, Deal, End, RecordLine
from engine.games import new_game, record_book
from engine.lines import LineKind, is_kind
from engine.record import chance_of
from engine.review import DealReview

CENTRE: Final = ("turn_up", "trick", "pile", "table")
"""The places (:data:`engine.core.Places`) drawn in the middle of the table, in this order."""
FACES: Final = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
Snapshot = dict[str, str | int]
"""One step's table, compact: ``h0`` … a seat's hand and the centre's places as card codes
(space-separated), ``stock`` and ``k0`` … (a seat's taken cards) as counts."""


@dataclass(frozen=True, slots=True)
class ReplayMark:
    """A review's word on one action: deal ``deal``'s ``step``-th action (1 its first, as
    :class:`engine.review.ReviewStep`'s ``index``), ``text`` what the review says (plain text)."""

    deal: int
    step: int
    text: str


def review_marks(review: DealReview, tr: Translator) -> tuple[ReplayMark, ...]:
    """A deal's review as marks on its steps: every seat's costliest decisions
    (:meth:`DealReview.costliest`) that cost something as the figures show it, each with what
    it cost on average and the search's choice (and, for the trick family's play, the cost
    with every card known)."""
    out = []
    for seat in range(review.players):
        for d in filter(shown_cost, review.costliest(seat)):
            text = tr(
                "costly: {cost} on average; the strongest search: {best}",
                cost=amount(-d.cost, d.unit, tr),
                best=words_of(d.best.action, tr),
            )
            if d.exact is not None and round(d.exact.cost, 1) > 0:
                exact = amount(-d.exact.cost, d.unit, tr)
                text += "; " + tr("with every card known: {cost}", cost=exact)
            out.append(ReplayMark(review.deal_no, d.step, text))
    return tuple(sorted(out, key=lambda m: m.step))


@dataclass(slots=True)
class _Step:
    deal: int  # index into the deals
    text: list[str]
    table: Snapshot
    seat: int | None = None  # who acted (None: a deal's start)
    mark: str | None = None


def replay_html(
    lines: Sequence[Line],
    names: Sequence[str],
    tr: Translator,
    *,
    chat_title: str = "",
    game_no: int = 1,
    marks: Sequence[ReplayMark] = (),
    marked: Sequence[int] | None = None,
) -> str:
    """The finished game ``lines`` (one RECORD.md record) as a page, in ``tr``'s language;
    ``marked``: the deals whose marks it carries, said in its header (None: not said)."""
    game = str(lines[0]["game"])
    loc = tr.locale
    steps, deals = _steps(lines, names, tr, {(m.deal, m.step): m.text for m in marks})
    name = game_name(game, loc)
    title = (
        tr("{game} — «{chat}», game {no}", game=name, chat=chat_title, no=game_no)
        if chat_title
        else tr("{game} — game {no}", game=name, no=game_no)
    )
    final = next((line for line in lines if is_kind(line, LineKind.END)), None)
    book = record_book(game)
    top = max([52, *(int(v) for s in steps for v in s.table.values() if isinstance(v, int))])
    counts = range(top + 1)  # the counts' words, made here: every language's plural forms
    data = {
        "lang": loc,
        "title": title,
        "players": tr(
            "Players: {list}", list=" · ".join(f"{i + 1}. {n}" for i, n in enumerate(names))
        ),
        "names": list(names),
        "marked": "" if marked is None else marked_words(marked, tr),
        "ranks": {r.value: rank_name(r, loc) for r in FACES},
        "ui": _words(tr),
        "stock": [tr.n("{n} card in the stock", "{n} cards in the stock", n) for n in counts],
        "taken": [tr.n("{n} card taken", "{n} cards taken", n) for n in counts],
        "deals": [list(d) for d in deals],
        "steps": [_step_json(s, steps[i - 1].table if i else {}) for i, s in enumerate(steps)],
        "final": "" if final is None else (line_words(book.parse(final), names, tr) or ""),
    }
    payload = _script_json(data)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape(loc)}"><head><meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{PAGE_STYLE}</style></head>\n"
        '<body><main id="app"></main>\n'
        f'<script type="application/json" id="data">{payload}</script>\n'
        f"<script>{PAGE_SCRIPT}</script>\n</body></html>\n"
    )


def marked_words(deals: Sequence[int], tr: Translator) -> str:
    """The header's line on which deals carry the review's marks (never pretends to all)."""
    listed = ", ".join(str(d) for d in deals)
    if not deals:
        return tr("Review marks: none yet.")
    if len(deals) == 1:
        return tr("Review marks: deal {list}", list=listed)
    return tr("Review marks: deals {list}", list=listed)


def step_count(lines: Sequence[Line]) -> int:
    """How many steps a record's page has: one a deal (as dealt), one an action."""
    return sum(is_kind(line, LineKind.DEAL) or is_kind(line, LineKind.ACT) for line in lines)


def _words(tr: Translator) -> dict[str, str]:
    """The page's own words (its buttons' names, its places' labels)."""
    return {
        "deal": tr("Deal {no}"),
        "deals": tr("Deals"),
        "first": tr("To the start"),
        "prev": tr("Back a step"),
        "next": tr("Next step"),
        "last": tr("To the end"),
        "keys": tr("Keys: ← → a step, Home and End the start and the end."),
        "dealer": tr("deals"),
        "turn_up": tr("Turn-up"),
        "trick": tr("On the table"),
        "pile": tr("The pile"),
        "table": tr("On the table"),
        "mark": tr("Review"),
    }


def _steps(
    lines: Sequence[Line],
    names: Sequence[str],
    tr: Translator,
    marks: Mapping[tuple[int, int], str],
) -> tuple[list[_Step], list[tuple[int, int, int]]]:
    """Every step with its table, replaying the record; and each deal's number, first step and
    dealer."""
    head = lines[0]
    seats = lines[1] if len(lines) > 1 and is_kind(lines[1], LineKind.SEATS) else None
    prev = seats.get("prev_dealer") if seats is not None and seats.get("by") == "series" else None
    state = new_game(
        head["game"],
        head["players"],
        head["seed"],
        head.get("options", {}),
        chance=chance_of(list(lines)),
        prev_dealer=prev,
    )
    book = record_book(str(head["game"]))
    steps: list[_Step] = []
    deals: list[tuple[int, int, int]] = []
    actions = 0  # the current deal's so far
    for raw in lines:
        line: RecordLine = book.parse(raw)
        words = line_words(line, names, tr)
        if isinstance(line, Deal):
            deals.append((line.no, len(steps), line.dealer))
            actions = 0
            table = _snapshot(state) if state.view(None).deal_no == line.no else {}
            steps.append(_Step(len(deals) - 1, [words or ""], table))
        elif isinstance(line, Act):
            actions += 1
            before = _snapshot(state)
            made = state.apply(line.seat, line.a)
            ended = any(is_kind(m, LineKind.DEAL_END) for m in made)
            # a deal's last action deals the next one at once: its table is drawn from before,
            # the last trick still on it (the game's last deal's too, alike)
            table = _moved(before, line.seat, line.a) if ended else _snapshot(state)
            mark = marks.get((deals[-1][0], actions)) if deals else None
            step = _Step(len(deals) - 1, [words or ""], table, line.seat, mark)
            steps.append(step)
        elif isinstance(line, End) and steps:
            steps[-1].text.append(words or "")
        elif words is not None and steps:
            steps[-1].text.append(words.strip())
    return steps, deals


def _snapshot(state: State) -> Snapshot:
    return _compact(state.places())


def _compact(places: Places) -> Snapshot:
    out: Snapshot = {}
    for place, cards in places.items():
        if place.startswith("hand"):
            out["h" + place.removeprefix("hand")] = _codes(cards)
        elif place.startswith("taken"):
            out["k" + place.removeprefix("taken")] = len(cards)
        elif place == "stock":
            out["stock"] = len(cards)
        elif place in CENTRE:
            out[place] = _codes(cards)
    return out


def _moved(before: Snapshot, seat: int, action: str) -> Snapshot:
    """The table just after ``seat``'s action when the engine has dealt again already: its cards
    gone from his hand and the table; a trick's cards laid on it."""
    cards = {str(c) for c in action_parts(action).cards}
    hand = f"h{seat}"
    out: Snapshot = {}
    for place, value in before.items():
        if isinstance(value, str):
            out[place] = " ".join(c for c in value.split() if c not in cards)
        else:
            out[place] = value
    laid = [c for c in str(before.get(hand, "")).split() if c in cards]
    if "trick" in before:
        out["trick"] = " ".join([*str(before["trick"]).split(), *laid])
    return out


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _changes(before: Snapshot, now: Snapshot) -> dict[str, str | int | None]:
    """What changed on the table since the step before (None: a place gone)."""
    out: dict[str, str | int | None] = {k: v for k, v in now.items() if before.get(k) != v}
    out.update({k: None for k in before if k not in now})
    return out


def _step_json(step: _Step, before: Snapshot) -> list[object]:
    table = _changes(before, step.table)
    out: list[object] = [step.deal, "\n".join(step.text), table, step.seat]
    if step.mark is not None:
        out.append(step.mark)
    return out


def _script_json(data: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` left to end it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, code)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
