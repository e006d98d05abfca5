"""🔎 A deal's review in words (bot/render/review.py) and ``python -m bot review FILE.jsonl``:
the summary names the costliest decisions first in the game's unit, each step shows every hand
and what was done, names are data, every text fits a message; the terminal command prints the
summary then every step in ru and en, and refuses a bad file or deal in one line, exit 2."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import Catalogues
from bot.markup import unmarked
from bot.message_limits import MAX_TEXT, fits
from bot.render.cards import card_names
from bot.render.review import game_summary_text, step_text, summary_text
from bot.terminal.review import review_main
from engine.record import read_records, write_jsonl
from engine.review import review_deal

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
GOLDEN = ROOT / "tests" / "golden" / "records"
MUSHKA = GOLDEN / "mushka-3p-target5.jsonl"
COST = re.compile(r"\(−(\d+(?:\.\d)?) ")


def test_the_summary_lists_the_costliest_decisions_first_in_the_game_s_unit() -> None:
    review = review_deal(read_records(GOLDEN / "konchinka-2p-target5.jsonl")[0], 1, 1, seats=(0,))
    ru = unmarked(summary_text(review, 0, CATALOGUES.tr("ru"), ["Аня", "Боря"]))
    assert ru.startswith("🔎 Сдача 1 — Аня\nВаши самые дорогие решения: 1) ")
    costs = [float(c) for c in COST.findall(ru.splitlines()[1])]
    assert len(costs) == 3 and costs == sorted(costs, reverse=True)
    assert costs[0] == pytest.approx(round(review.costliest(0)[0].cost, 1))
    mine = sum(1 for d in review.decisions if d.seat == 0)
    assert f"За {mine} решени" in ru and "очк" in ru  # Кончинка's deal points
    en = unmarked(summary_text(review, 0, CATALOGUES.tr("en")))
    assert en.startswith("🔎 Deal 1 — Seat 1\nYour costliest decisions: 1) ")
    assert f"Over your {mine} decisions: −" in en


def test_the_game_s_summary_names_the_deal_of_each_costliest_decision() -> None:
    record = read_records(GOLDEN / "mushka-6p-target5.jsonl")[0]
    reviews = [review_deal(record, no, 1, seats=(0,)) for no in (1, 2, 3)]
    ranked = sorted(
        ((d.cost, r.deal_no) for r in reviews for d in r.decisions if round(d.cost, 1) > 0),
        key=lambda t: -t[0],
    )[:3]
    ru = unmarked(game_summary_text(reviews, 0, CATALOGUES.tr("ru")))
    assert ru.startswith("Ваши самые дорогие решения: 1) ")
    assert re.findall(r"в сдаче (\d+) \(−", ru) == [str(no) for _, no in ranked]
    assert [float(c) for c in COST.findall(ru)] == [round(c, 1) for c, _ in ranked]
    assert unmarked(game_summary_text(reviews[:0], 0, CATALOGUES.tr("en"))) == (
        "None of your decisions fell short of the strongest computer's."
    )


def test_a_seat_without_a_choice_is_told_so() -> None:
    review = review_deal(read_records(MUSHKA)[0], 1, 1, seats=())
    assert unmarked(summary_text(review, 2, CATALOGUES.tr("en"))).endswith(
        "You had no choice to make in this deal."
    )


def test_each_step_shows_every_hand_what_was_done_and_the_decision() -> None:
    review = review_deal(read_records(MUSHKA)[0], 1, 1, seats=(0,))
    tr = CATALOGUES.tr("en")
    names = ["<b>Ann</b>", "Bob", "Cy"]
    last = len(review.steps) - 1
    for i, step in enumerate(review.steps):
        html = step_text(review, i, tr, names)
        assert fits(html, MAX_TEXT) and "<b>Ann</b>" not in html and "&lt;b&gt;Ann" in html
        text = unmarked(html)
        head = "🔎 Deal 1 · as dealt" if i == 0 else f"🔎 Deal 1 · step {i} of {last}"
        assert text.startswith(head)
        for seat in range(3):
            hand = step.state.hand(seat)
            assert f"{names[seat]}: {card_names(hand, 'en') if hand else '—'}" in text
        stock = len(step.state.places().get("stock", ()))
        assert (f"Stock: {stock} cards" in text) == (stock > 1)
        places = step.state.places()
        turned, trick = places.get("turn_up", ()), places.get("trick", ())
        if turned:  # the turn-up is said apart: it shows the trump, it is not on the table
            assert f"Turned up: {card_names(turned, 'en')}" in text
        on_table = [ln for ln in text.splitlines() if ln.startswith("On the table: ")]
        assert on_table == ([f"On the table: {card_names(trick, 'en')}"] if trick else [])
    decision = review.decisions[0]
    text = unmarked(step_text(review, decision.step, tr, names))
    assert ("❗ Cost −" in text) == (round(decision.cost, 1) > 0)
    assert "✅" in text or "the strongest computer would choose" in text
    played = next(d for d in review.decisions if d.exact is not None)
    assert "With every hand known: " in unmarked(step_text(review, played.step, tr))


def test_every_step_of_the_largest_table_fits_a_message_in_russian() -> None:
    review = review_deal(read_records(GOLDEN / "lenturlu-6p-out-cards.jsonl")[0], 1, 1, seats=())
    tr = CATALOGUES.tr("ru")
    long = ["Имя" * 20] * 6
    assert all(fits(step_text(review, i, tr, long)) for i in range(len(review.steps)))


@pytest.mark.parametrize(
    ("lang", "head", "step"),
    [("ru", "🔎 Сдача 1 — Место 1", "ход 1 из"), ("en", "🔎 Deal 1 — Seat 1", "step 1 of")],
)
def test_the_terminal_prints_the_summary_then_every_step(lang: str, head: str, step: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = review_main([str(MUSHKA), "--deal", "1", "--seat", "1", "--lang", lang], out, err)
    assert (code, err.getvalue()) == (0, "")
    text = out.getvalue()
    steps = len(review_deal(read_records(MUSHKA)[0], 1, 1, seats=()).steps)
    assert text.startswith(head) and step in text
    assert text.count("🔎") == 1 + steps and "<b>" not in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["nowhere.jsonl"], "review: cannot read nowhere.jsonl"),
        ([str(ROOT / "README.md")], "is not a record file"),
        ([str(MUSHKA), "--deal", "9"], "review: deal 9 is not a finished deal of the record"),
        ([str(MUSHKA), "--seat", "4"], "review: the game has seats 1 to 3, no seat 4"),
        ([str(MUSHKA), "--game", "4"], "has 3 record(s), no game 4"),
        ([str(MUSHKA), "--deal", "x"], "review: argument --deal: invalid int value"),
    ],
)
def test_a_bad_file_or_deal_is_refused_in_one_line(args: list[str], said: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert review_main(args, out, err) == 2
    assert out.getvalue() == "" and said in err.getvalue() and err.getvalue().count("\n") == 1


def test_a_running_game_s_finished_deals_are_reviewed_and_its_running_deal_refused(
    tmp_path: Path,
) -> None:
    record = read_records(MUSHKA)[0]
    end = next(i for i, line in enumerate(record) if line["t"] == "deal_end" and line["no"] == 2)
    running = tmp_path / "running.jsonl"
    running.write_text(write_jsonl(record[: end - 3]), encoding="utf-8")  # deal 2 in play
    out, err = io.StringIO(), io.StringIO()
    assert review_main([str(running), "--seat", "1", "--lang", "en"], out, err) == 0
    assert out.getvalue().startswith("🔎 Deal 1 — Seat 1") and "Deal 2" not in out.getvalue()
    out, err = io.StringIO(), io.StringIO()
    assert review_main([str(running), "--deal", "2"], out, err) == 2
    assert err.getvalue() == "review: deal 2 is not a finished deal of the record\n"


def test_python_m_bot_review_needs_no_token() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "review", str(MUSHKA), "--deal", "2", "--seat", "2"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("🔎 Сдача 2 — Место 2\n")
