"""🔎 A finished deal's review in words (:func:`engine.review.review_deal`): each step's table
with every hand shown (the deal is over: nothing is hidden any more), what was done, and on a
decision of a seat what it was worth against the strongest search's choice; and the summary of a
seat's costliest decisions. Pure: a review in, Telegram HTML out (the terminal shows it plain),
each text within one message.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.markup import Html
from bot.message_limits import MAX_TEXT, truncate
from bot.render.action_words import words_of
from bot.render.cards import card_names
from bot.render.hint import amount
from engine.core import Line, Seat
from engine.lines import LineKind, is_kind
from engine.review import DealReview, Decision

TRICK_EVENT = "trick"
"""The trick family's event of a trick won (RECORD.md §R6)."""

TABLE_PLACES = ("trick", "pile", "table")  # what lies face up in play (the turn-up apart)
"""The places of :data:`engine.core.Places` that lie face up on the table, in the order shown."""


def seat_name(seat: Seat, names: Sequence[str] | None, tr: Translator) -> str:
    """The seat's player (plain text: escaped where it goes into HTML), or «Место N»."""
    if names is not None and seat < len(names) and names[seat]:
        return names[seat]
    return tr("Seat {n}", n=seat + 1)


def shown_cost(decision: Decision) -> bool:
    """Whether the decision cost something as the figures show it (to one decimal)."""
    return round(decision.cost, 1) > 0 and decision.best.action != decision.taken


def cost_words(decision: Decision, tr: Translator) -> str:
    """What the decision cost, signed as a loss in the game's unit («−4.2 очка списания»)."""
    return amount(-decision.cost, decision.unit, tr)


def summary_text(
    review: DealReview, seat: Seat, tr: Translator, names: Sequence[str] | None = None
) -> Html:
    """The head of a seat's review: the deal, then its costliest decisions, costliest first
    («Ваши самые дорогие решения: 1) пас, ход 1 (−4.2 …)»), or that none cost anything."""
    head = tr.html(
        "🔎 <b>Deal {no}</b> — {name}", no=review.deal_no, name=seat_name(seat, names, tr)
    )
    mine = [d for d in review.decisions if d.seat == seat]
    if not mine:
        return Html(head + "\n" + tr.html("You had no choice to make in this deal."))
    costly = [d for d in review.costliest(seat) if shown_cost(d)]
    if not costly:
        return Html(
            head
            + "\n"
            + tr.n_html(
                "Your {n} decision matched the strongest computer's.",
                "All your {n} decisions matched the strongest computer's.",
                len(mine),
            )
        )
    items = [
        tr.html(
            "{i}) {move}, step {step} ({cost})",
            i=i,
            move=words_of(d.taken, tr),
            step=d.step,
            cost=cost_words(d, tr),
        )
        for i, d in enumerate(costly, 1)
    ]
    total = sum(d.cost for d in mine)
    lines = [
        head,
        tr.html("Your costliest decisions: {items}", items=Html("; ".join(items))),
        tr.n_html(
            "Over your {n} decision: {cost} in all.",
            "Over your {n} decisions: {cost} in all.",
            len(mine),
            cost=amount(-total, mine[0].unit, tr),
        ),
    ]
    return Html(truncate("\n".join(lines), MAX_TEXT))


def game_summary_text(reviews: Sequence[DealReview], seat: Seat, tr: Translator) -> Html:
    """A seat's costliest decisions over several deals of a game, costliest first («Ваши самые
    дорогие решения: 1) пас в сдаче 3 (−4.2 …)»), or that none cost anything."""
    costly = sorted(
        ((d.cost, r.deal_no, d.step, d) for r in reviews for d in r.costliest(seat)),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    shown = [(no, d) for _, no, _, d in costly if shown_cost(d)][:3]
    if not shown:
        return tr.html("None of your decisions fell short of the strongest computer's.")
    items = [
        tr.html(
            "{i}) {move} in deal {no} ({cost})",
            i=i,
            move=words_of(d.taken, tr),
            no=no,
            cost=cost_words(d, tr),
        )
        for i, (no, d) in enumerate(shown, 1)
    ]
    return Html(
        truncate(tr.html("Your costliest decisions: {items}", items=Html("; ".join(items))))
    )


def decision_text(decision: Decision, tr: Translator) -> Html:
    """A decision's figures: the action taken against the strongest search's choice, each
    valued from what the seat knew then; and for the trick family's play, with every hand
    known."""
    unit = decision.unit
    taken = amount(decision.taken_value, unit, tr)
    if shown_cost(decision):
        lines = [
            tr.html(
                "❗ Cost {cost}: the strongest computer chooses {best} ({value}); yours: {taken}.",
                cost=cost_words(decision, tr),
                best=words_of(decision.best.action, tr),
                value=amount(decision.best_value, unit, tr),
                taken=taken,
            )
        ]
    else:
        lines = [tr.html("✅ The strongest computer's choice too ({value}).", value=taken)]
    exact = decision.exact
    if exact is not None:
        if round(exact.cost, 1) > 0:
            lines.append(
                tr.html(
                    "With every hand known: {taken}; {best} would give {value}.",
                    taken=amount(exact.taken, unit, tr),
                    best=words_of(exact.best_action, tr),
                    value=amount(exact.best, unit, tr),
                )
            )
        else:
            lines.append(
                tr.html(
                    "With every hand known: {taken}, the best there was.",
                    taken=amount(exact.taken, unit, tr),
                )
            )
    return Html("\n".join(lines))


def step_text(
    review: DealReview, index: int, tr: Translator, names: Sequence[str] | None = None
) -> Html:
    """Step ``index`` of the review (0: the deal as dealt): what was done, the tricks it
    completed, the decision's figures where the step was one valued, then the table with every
    hand. Raises ``IndexError`` for a step the review has not."""
    step = review.steps[index]
    last = len(review.steps) - 1
    lines = [
        tr.html(
            "🔎 <b>Deal {no}</b> · step {step} of {last}",
            no=review.deal_no,
            step=index,
            last=last,
        )
        if index
        else tr.html("🔎 <b>Deal {no}</b> · as dealt", no=review.deal_no)
    ]
    if step.seat is not None:
        lines.append(
            tr.html(
                "<b>{name}</b>: {action}",
                name=seat_name(step.seat, names, tr),
                action=words_of(step.action, tr),
            )
        )
    lines.extend(_events(step.lines, tr, names))
    decision = review.decision_at(index)
    if decision is not None:
        lines.append(decision_text(decision, tr))
    lines.append(Html(""))
    lines.extend(_table(review, index, tr, names))
    return Html(truncate("\n".join(lines), MAX_TEXT))


def review_text(
    review: DealReview, seat: Seat, tr: Translator, names: Sequence[str] | None = None
) -> list[Html]:
    """The whole review as the terminal prints it: the summary, then every step."""
    return [summary_text(review, seat, tr, names)] + [
        step_text(review, i, tr, names) for i in range(len(review.steps))
    ]


def _events(lines: Sequence[Line], tr: Translator, names: Sequence[str] | None) -> list[Html]:
    """The tricks a step completed, each with its winner."""
    return [
        tr.html(
            "Trick {no} to {name}", no=line["no"], name=seat_name(int(line["winner"]), names, tr)
        )
        for line in lines
        if is_kind(line, LineKind.EVENT) and line.get("e") == TRICK_EVENT
    ]


def _table(
    review: DealReview, index: int, tr: Translator, names: Sequence[str] | None
) -> list[Html]:
    """Every hand, what lies face up, the stock, what each seat has taken."""
    state = review.steps[index].state
    places = state.places()
    loc = tr.locale
    out: list[Html] = []
    for seat in range(review.players):
        hand = places.get(f"hand{seat}", ())
        taken = places.get(f"taken{seat}", ())
        text = card_names(hand, loc) if hand else "—"
        if taken:
            text += " · " + tr.n("{n} card taken", "{n} cards taken", len(taken))
        out.append(tr.html("{name}: {cards}", name=seat_name(seat, names, tr), cards=text))
    turned = places.get("turn_up", ())
    if turned:  # the trick family's turned-up card: it shows the trump, it is not in play
        out.append(tr.html("Turned up: {cards}", cards=card_names(turned, loc)))
    shown = [c for place in TABLE_PLACES for c in places.get(place, ())]
    if shown:
        out.append(tr.html("On the table: {cards}", cards=card_names(shown, loc)))
    stock = len(places.get("stock", ()))
    if stock:
        out.append(tr.n_html("Stock: {n} card", "Stock: {n} cards", stock))
    return out


__all__ = [
    "cost_words",
    "decision_text",
    "game_summary_text",
    "review_text",
    "seat_name",
    "shown_cost",
    "step_text",
    "summary_text",
]
