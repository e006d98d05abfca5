"""The review's messages in a chat: 🔎 on a deal's result, and a step of the review with
⏮ ◀ ▶ ⏭ and ✖️ (its text is :mod:`bot.render.review`'s; the step is edited in place).

Callback data: ``v:table:-:match:act:deal[.step]`` (:class:`bot.callbacks.ReviewAct`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Final

from bot.callbacks import Kind, Press, PressCodec, ReviewAct
from bot.i18n import N_, Translator
from bot.rendered import Button, Rendered, keyboard
from bot.storage.reviews_sql import ReviewKey
from engine.core import Line


class NotYet(StrEnum):
    """Why a review does not open (yet)."""

    DEAL_RUNNING = "deal_running"  # the deal is still being played
    MATCH_RUNNING = "match_running"  # he did not play it, and the match goes on
    UNFINISHED = "unfinished"  # the deal was cut off (the table closed): nothing to review


NOT_YET: Final[Mapping[NotYet, str]] = {
    NotYet.DEAL_RUNNING: N_("🔎 The review opens when the deal is over."),
    NotYet.MATCH_RUNNING: N_(
        "🔎 The review opens when the game is over (its players may open it at once)."
    ),
    NotYet.UNFINISHED: N_("🔎 This deal was cut off: there is nothing to review."),
}
"""What a press that opens no review is told (a toast)."""

DEALS_A_ROW: Final = 8  # /record's deal buttons in a row (one digit or two: fits a phone)
DEALS_OFFERED: Final = 96  # at most (Telegram takes 100 buttons a keyboard)


def review_press(table_id: int, match_no: int, deal_no: int) -> Press:
    """🔎: the review of deal ``deal_no`` of the table's match ``match_no``."""
    return Press(Kind.REVIEW, table_id, None, match_no, ReviewAct.OPEN, str(deal_no))


def review_button(
    table_id: int, match_no: int, deal_no: int, tr: Translator, codec: PressCodec
) -> Button:
    data = codec.pack(review_press(table_id, match_no, deal_no))
    return Button(text=tr("🔎 Review"), callback_data=data)


def deals_message(
    table_id: int, match_no: int, deals: Sequence[int], tr: Translator, codec: PressCodec
) -> Rendered | None:
    """/record's offer of a finished game's reviews: a button a deal (the first
    :data:`DEALS_OFFERED`); None: no deal was played to its end."""
    if not deals:
        return None
    offered = deals[:DEALS_OFFERED]
    buttons = [
        Button(text=str(no), callback_data=codec.pack(review_press(table_id, match_no, no)))
        for no in offered
    ]
    rows = [buttons[i : i + DEALS_A_ROW] for i in range(0, len(buttons), DEALS_A_ROW)]
    return Rendered(tr.html("🔎 The review of a deal:"), keyboard(rows))


def ended_deal(events: tuple[Line, ...]) -> int | None:
    """The number of the deal whose end ``events`` show (None: no deal ended in them)."""
    for line in reversed(events):
        if line.get("t") == "deal_end":
            return int(line["no"])
    return None


def step_arg(deal_no: int, index: int) -> str:
    return f"{deal_no}.{index}"


def parse_arg(arg: str | None) -> tuple[int, int] | None:
    """A review press's deal and step (``"3"``: deal 3, step 0); None: malformed."""
    head, _, tail = (arg or "").partition(".")
    if not head.isdigit() or (tail and not tail.isdigit()):
        return None
    return int(head), int(tail or 0)


def step_message(
    key: ReviewKey, text: str, index: int, count: int, tr: Translator, codec: PressCodec
) -> Rendered:
    """Step ``index`` of ``count`` (its text says which it is), and the buttons to step and
    close."""

    def button(label: str, act: ReviewAct, to: int | None = None) -> Button:
        arg = str(key.deal_no) if to is None else step_arg(key.deal_no, to)
        press = Press(Kind.REVIEW, key.table_id, None, key.match_no, act, arg)
        return Button(text=label, callback_data=codec.pack(press))

    last = count - 1
    back = [button("⏮", ReviewAct.STEP, 0), button("◀", ReviewAct.STEP, index - 1)]
    on = [button("▶", ReviewAct.STEP, index + 1), button("⏭", ReviewAct.STEP, last)]
    row = [*(back if index > 0 else ()), *(on if index < last else ())]
    markup = keyboard([row, [button(tr("✖️ Close"), ReviewAct.CLOSE)]])
    return Rendered(text, markup)
