"""The replay page (bot/render/replay_html.py): one self-contained HTML file of a finished game —
no URL at all, names as text, every step (a deal as dealt, every action) in the transcript's
words with every hand the engine had, the final result, compact (a 20-deal Мушка pulka well
under 300 KB), in Russian and English."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Final

import pytest

from bot.i18n import Catalogues, Translator
from bot.render.action_words import action_parts
from bot.render.replay_html import ReplayMark, replay_html, review_marks
from bot.render.transcript import line_words
from engine.core import Line, abandoned_line
from engine.games import record_book
from engine.record import read_records
from engine.review import review_deal
from tests.bot.proof_figures import add_figure

ROOT: Final = Path(__file__).resolve().parents[2]
CATALOGUES: Final = Catalogues.load(ROOT / "locales")
GOLDEN: Final = sorted((ROOT / "tests" / "golden" / "records").glob("*.jsonl"))
RECORDS: Final = [(f"{p.stem}#{i}", r) for p in GOLDEN for i, r in enumerate(read_records(p))]
DATA: Final = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)
SIZE_LIMIT: Final = 300_000
"""Bytes: the page of a 20-deal Мушка pulka stays under it (issue's figure)."""


def names_of(record: list[Line]) -> list[str]:
    return ["Анна", "Boris", "Вера", "Dmitri", "Егор", "Fedor", "Галя"][: record[0]["players"]]


def data_of(page: str) -> dict[str, Any]:
    found = DATA.search(page)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def tables_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step's whole table, rebuilt from the changes the page lists (as its script does)."""
    out: list[dict[str, Any]] = []
    now: dict[str, Any] = {}
    for step in data["steps"]:
        now = {**now, **step[2]}
        now = {k: v for k, v in now.items() if v is not None}
        out.append(now)
    return out


def said(record: list[Line], names: list[str], tr: Translator, kinds: set[str]) -> list[str]:
    book = record_book(record[0]["game"])
    return [line_words(book.parse(x), names, tr) or "" for x in record if x["t"] in kinds]


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_every_golden_game_page_is_self_contained_with_every_step(
    name: str, record: list[Line], locale: str
) -> None:
    tr = CATALOGUES.tr(locale)
    names = names_of(record)
    page = replay_html(record, names, tr, chat_title="Пятница", game_no=2)
    lowered = page.lower()
    for outside in ("http:", "https:", "://", "<link", "@import", "url(", "src=", "<iframe"):
        assert outside not in lowered, outside
    assert f'<html lang="{locale}">' in page
    assert "default-src 'none'" in page  # the page may fetch nothing
    data = data_of(page)
    steps = data["steps"]
    # one step a deal (as dealt), one an action: each opens with the transcript's words for it
    assert [s[1].split("\n")[0] for s in steps] == said(record, names, tr, {"deal", "act"})
    assert len(steps) == sum(x["t"] in ("deal", "act") for x in record)
    (final,) = said(record, names, tr, {"end"})
    assert data["final"] == final and final.startswith("Итог:" if locale == "ru" else "Result:")
    assert steps[-1][1].endswith(final)
    assert data["names"] == names and data["lang"] == locale


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_every_hand_at_every_step_is_the_engines(name: str, record: list[Line]) -> None:
    """A card played leaves its player's hand on that very step (the deal's last one too, before
    the next deal is drawn)."""
    data = data_of(replay_html(record, names_of(record), CATALOGUES.tr("en")))
    tables = tables_of(data)
    acts = iter(x for x in record if x["t"] == "act")
    checked = 0
    for i, step in enumerate(data["steps"]):
        seat = step[3]
        if seat is None:
            continue
        act = next(acts)
        assert act["seat"] == seat
        named = {str(c) for c in action_parts(act["a"]).cards}
        before = set(tables[i - 1][f"h{seat}"].split())
        after = set(tables[i][f"h{seat}"].split())
        played = named & before
        assert not played & after, (i, act)  # gone on this very step
        checked += bool(played)
    assert checked >= len(data["deals"])


def test_a_name_with_markup_stays_text() -> None:
    _, record = RECORDS[0]
    names = ["</script><b>x", "Анна & Co", "<!--"][: record[0]["players"]]
    names += ["Boris"] * (record[0]["players"] - len(names))
    page = replay_html(record, names, CATALOGUES.tr("ru"), chat_title="</title><i>")
    assert page.count("</script>") == 2  # the data's and the script's own ends, nothing more
    assert "<b>" not in page and "<i>" not in page and "<!--" not in page
    assert "&lt;/title&gt;&lt;i&gt;" in page  # the chat's title in <title>, escaped
    assert data_of(page)["names"] == names


def test_a_mushka_pulka_of_twenty_deals_fits_in_300_kb(request: pytest.FixtureRequest) -> None:
    """Each page's size is one of the run's figures (printed at its end)."""
    simulated = ROOT / "tests" / "golden" / "simulated" / "mushka.jsonl"
    records = [r for _, r in RECORDS] + read_records(simulated)
    pulkas = [
        r for r in records if r[0]["game"] == "mushka" and sum(x["t"] == "deal" for x in r) >= 20
    ]
    assert pulkas
    for record in pulkas:
        for locale in ("ru", "en"):
            page = replay_html(record, names_of(record), CATALOGUES.tr(locale), chat_title="Клуб")
            size = len(page.encode())
            deals = sum(x["t"] == "deal" for x in record)
            seats = record[0]["players"]
            add_figure(request, f"replay page bytes, mushka {seats}p {deals} deals {locale}", size)
            assert size <= SIZE_LIMIT


def test_review_marks_go_on_their_steps_and_nowhere_else() -> None:
    _, record = next((n, r) for n, r in RECORDS if n.startswith("mushka-3p-target5"))
    tr = CATALOGUES.tr("ru")
    plain = data_of(replay_html(record, names_of(record), tr))
    assert all(len(s) == 4 for s in plain["steps"])
    marks = [ReplayMark(1, 3, "пас (−4.2)"), ReplayMark(2, 1, "<b>")]
    data = data_of(replay_html(record, names_of(record), tr, marks=marks))
    firsts = {d[0]: d[1] for d in data["deals"]}  # a deal's number: its step as dealt
    marked = {i: s[4] for i, s in enumerate(data["steps"]) if len(s) > 4}
    assert marked == {firsts[1] + 3: "пас (−4.2)", firsts[2] + 1: "<b>"}


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_deals_review_marks_its_costliest_decisions(locale: str) -> None:
    """The engine's review of a deal (engine/review.py) marks every seat's costliest decisions
    on the steps where they were taken, with their cost in the game's unit."""
    record = next(r for n, r in RECORDS if n.startswith("mushka-3p-record-example"))
    review = review_deal(record, 1, 7)
    costly = [d for seat in range(review.players) for d in review.costliest(seat)]
    assert costly  # random play: some decision cost something
    tr = CATALOGUES.tr(locale)
    data = data_of(replay_html(record, names_of(record), tr, marks=review_marks(review, tr)))
    marked = {i: s for i, s in enumerate(data["steps"]) if len(s) > 4}
    assert sorted(marked) == sorted(d.step for d in costly)  # deal 1 starts at step 0
    unit = "к списанию" if locale == "ru" else "off the count"
    for d in costly:
        step = marked[d.step]
        assert step[3] == d.seat and unit in step[4]
        assert step[4].startswith("дорогое решение" if locale == "ru" else "costly")


def test_a_cost_the_figures_show_as_nothing_is_no_mark() -> None:
    """A decision whose cost rounds to 0.0 (the search's noise) is not marked as costly."""
    record = next(r for n, r in RECORDS if n.startswith("mushka-3p-record-example"))
    review = review_deal(record, 1, 7)
    costly = [d for seat in range(review.players) for d in review.costliest(seat)]
    noise = {costly[0].step}
    shaved = dataclasses.replace(
        review,
        decisions=tuple(
            dataclasses.replace(d, cost=0.04) if d.step in noise else d for d in review.decisions
        ),
    )
    steps = {m.step for m in review_marks(shaved, CATALOGUES.tr("ru"))}
    assert steps == {d.step for d in costly} - noise


@pytest.mark.parametrize(("name", "record"), RECORDS[:4], ids=[n for n, _ in RECORDS[:4]])
def test_an_abandoned_game_shows_every_step_up_to_where_it_stopped(
    name: str, record: list[Line]
) -> None:
    """A game closed in the middle of a deal (RECORD.md §R5.7's abandoned line after any line):
    its page steps up to there and ends on the abandoned result, nobody paid."""
    acts = [i for i, x in enumerate(record) if x["t"] == "act"]
    cut = [*record[: acts[len(acts) // 2] + 1], abandoned_line(record[0]["players"])]
    tr = CATALOGUES.tr("en")
    data = data_of(replay_html(cut, names_of(cut), tr))
    assert len(data["steps"]) == sum(x["t"] in ("deal", "act") for x in cut)
    assert data["final"] == "Result: " + " · ".join(f"{n} 0" for n in names_of(cut))
    assert data["steps"][-1][1].endswith(data["final"])


TRICKS: Final = [(n, r) for n, r in RECORDS if r[0]["game"] in ("mushka", "pamfil", "shutikha")]


@pytest.mark.parametrize(("name", "record"), TRICKS, ids=[n for n, _ in TRICKS])
def test_a_deals_last_step_shows_its_last_trick_on_the_table(name: str, record: list[Line]) -> None:
    """The step that ends a deal shows the trick that ended it, the game's last deal too (the
    engine has dealt the next deal, or ended the game, by the time the step is drawn)."""
    data = data_of(replay_html(record, names_of(record), CATALOGUES.tr("en")))
    tables = tables_of(data)
    ends = [i for i, s in enumerate(data["steps"]) if s[3] is not None and " ended." in s[1]]
    tricks: list[set[str]] = []  # each finished deal's last trick
    last: set[str] = set()
    for line in record:
        if line["t"] == "event" and line["e"] == "trick":
            last = {card for _, card in line["plays"]}
        elif line["t"] == "deal_end" and last:
            tricks.append(last)
            last = set()
    assert tricks and len(ends) >= len(tricks)
    shown = [set(tables[i].get("trick", "").split()) for i in ends]
    assert [t for t in shown if t] == tricks


@pytest.mark.parametrize(
    ("locale", "marked", "said"),
    [
        ("en", None, ""),
        ("en", (), "Review marks: none yet."),
        ("en", (3,), "Review marks: deal 3"),
        ("en", (1, 3), "Review marks: deals 1, 3"),
        ("ru", (), "Разбор: отметок пока нет."),
        ("ru", (2,), "Разбор: отмечена сдача 2"),
        ("ru", (1, 3, 5), "Разбор: отмечены сдачи 1, 3, 5"),
    ],
)
def test_the_header_says_which_deals_carry_the_reviews_marks(
    locale: str, marked: tuple[int, ...] | None, said: str
) -> None:
    _, record = RECORDS[0]
    page = replay_html(record, names_of(record), CATALOGUES.tr(locale), marked=marked)
    assert data_of(page)["marked"] == said
