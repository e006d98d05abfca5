"""What players see in Копилка, Лентюрлю and Кончинка — the right totals, who won in
words, every move told. Screens rendered from the golden records, in ru and en; each test names
the defect it keeps away."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.numbers import signed
from bot.presses.meaning import HandUI
from bot.render.cards import card_name
from bot.render.games.konchinka.screen import KONCHINKA_UI
from bot.render.games.kopilka.screen import KOPILKA_UI
from bot.render.games.lenturlu.screen import LENTURLU_UI
from engine.cards import Card
from engine.core import Line
from engine.kopilka.state import KopilkaPhase
from engine.record import read_records
from engine.record import replay as replay_state
from tests.bot.golden import prefixes, screen_context

ROOT = Path(__file__).resolve().parents[2]


def replay(lines: list[Line]) -> Any:
    """The replayed state, its views typed by the caller (each test's game)."""
    return replay_state(lines)


RECORDS = ROOT / "tests" / "golden" / "records"
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор")
LOCALES = ["ru", "en"]


def kopilka() -> list[Line]:
    return read_records(RECORDS / "kopilka-4p.jsonl")[0]


@pytest.mark.parametrize("locale", LOCALES)
def test_kopilka_final_hand_points_are_the_results(locale: str) -> None:
    """The final hand's partia points are the end line's (the last deal not counted twice), and
    it gives the seat's place and money."""
    tr = CATALOGUES.tr(locale)
    lines = kopilka()
    state = replay(lines)
    end = lines[-1]
    ctx = screen_context("kopilka", lines, NAMES[:4], locale)
    for seat in range(4):
        text = KOPILKA_UI.hand(ctx, state.view(seat), HandUI(), tr, CODEC).text
        partia = tr("partia {n}", n=end["points"][seat])
        assert partia in text, text
        money = end["net"][seat]
        assert f"{'+' if money > 0 else '−' if money < 0 else ''}{abs(money)}" in text
        assert tr("The partia is over") in text


@pytest.mark.parametrize("locale", LOCALES)
def test_kopilka_takeback_not_under_the_next_trick(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    said = tr("↩️ All three pass: {name} takes the card back (take-backs in a row: {n} of 4)")
    head = said.split("{name}")[0]
    shown = hidden = False
    for lines, state in prefixes(RECORDS / "kopilka-4p.jsonl", 0):
        view = state.view(None)
        if view.takeback is None or not view.takebacks or state.is_over:
            continue
        ctx = screen_context("kopilka", lines, NAMES[:4], locale)
        text = KOPILKA_UI.table(ctx, view, tr).text
        if view.phase == KopilkaPhase.FOLLOW:
            assert head not in text, text
            hidden = True
        else:
            assert head in text, text
            shown = True
    assert shown and hidden


def test_kopilka_doubled_tricks_and_buys_told() -> None:
    tr = CATALOGUES.tr("ru")
    lines = kopilka()
    at = next(i for i, ln in enumerate(lines) if ln.get("t") == "deal_end")
    more = next(i for i in range(at, len(lines)) if lines[i].get("t") == "act")
    ctx = screen_context("kopilka", lines[:more], NAMES[:4], "ru")
    events: list[Any] = lines[max(i for i in range(at) if lines[i].get("t") == "act") : more]
    text = KOPILKA_UI.deal_result(ctx, events, replay(lines[:more]).view(None), tr)
    assert "туз — " in text  # §2.6.1: which tricks an ace doubled
    buy = next(i for i, ln in enumerate(lines) if ln.get("why") == "buy")
    state = replay(lines[: buy + 1])
    seat = lines[buy]["seat"]
    ctx = screen_context("kopilka", lines[: buy + 1], NAMES[:4], "ru")
    table = KOPILKA_UI.table(ctx, state.view(None), tr).text
    n = len(lines[buy]["cards"])
    assert f"{NAMES[seat]} покупает {n} {('карту', 'карты')[n - 1]}" in table
    hand = KOPILKA_UI.hand(ctx, state.view(seat), HandUI(), tr, CODEC).text
    assert "Вы купили" in hand and "Карт на руках" in hand


def lenturlu_context(lines: list[Line], n: int, locale: str) -> Any:
    return screen_context("lenturlu", lines, NAMES[:n], locale)


def test_lenturlu_as_stake_after_the_first_lead() -> None:
    """§3.4.6 (Manner A): after the first lead the A♠'s money waits for the winner — the hand
    marks no A♠ as a stake to win, the table says where its money goes."""
    tr = CATALOGUES.tr("ru")
    checked = 0
    for lines, state in prefixes(RECORDS / "lenturlu-3p-king.jsonl", 0):
        view = state.view(None)
        if state.is_over or view.as_stake_open or not dict(view.layout).get(Card.parse("AS")):
            continue
        ctx = lenturlu_context(lines, 3, "ru")
        assert "Т♠ " + str(dict(view.layout)[Card.parse("AS")]) + " (победителю)" in (
            LENTURLU_UI.table(ctx, view, tr).text
        )
        for seat in range(3):
            rendered = LENTURLU_UI.hand(ctx, state.view(seat), HandUI(), tr, CODEC)
            assert "Т♠💰" not in rendered.text
            assert rendered.markup is not None
            labels = [b.text for row in rendered.markup.inline_keyboard for b in row]
            assert not any("Т♠💰" in label for label in labels)
        checked += 1
    assert checked


@pytest.mark.parametrize("locale", LOCALES)
def test_lenturlu_final_table_says_where_the_money_went(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    lines = read_records(RECORDS / "lenturlu-6p-out-cards.jsonl")[0]
    act = max(i for i, ln in enumerate(lines) if ln.get("t") == "act")
    before = replay(lines[:act]).view(None)
    ctx = lenturlu_context(lines[:act], 6, locale)
    events = [{k: v for k, v in ln.items() if k != "deck"} for ln in lines[act:]]
    text = LENTURLU_UI.ended_table(ctx, before, events, tr).text
    stakes = tr("Stakes: {list}", list="").strip()
    assert stakes not in text  # no «Ставки: 7♦ 0 · К♥ 0 …»
    end = next(ln for ln in lines if ln.get("t") == "deal_end")
    winner = ctx.names[end["winner"]]
    assert f"{end['layout']} → {winner}" in text
    for ln in lines:
        if ln.get("e") == "stake":
            assert f"{ctx.names[ln['seat']]}" in text and f" {ln['amount']} → " in text
    # every move told: who played which run on the pile
    assert f"{ctx.names[events[0]['seat']]} " in text.split("\n")[4]
    hand = LENTURLU_UI.hand(ctx, replay(lines).view(0), HandUI(), tr, CODEC).text
    assert tr("Your place: {place} of {n} · settlement: {money}").split("{")[0] in hand


@pytest.mark.parametrize("locale", LOCALES)
def test_konchinka_moves_told_and_final_hand(locale: str) -> None:
    """Each capture, sweep and trail is said on the table; the hand is sorted, shows everyone's
    hauls; the final hand gives the winner, the place and the money."""
    tr = CATALOGUES.tr(locale)
    path = RECORDS / "konchinka-2p-target5.jsonl"
    swept = False
    for lines, state in prefixes(path, 0):
        acts = [i for i, ln in enumerate(lines) if ln.get("t") == "act"]
        act = acts[-1] if acts else 0
        if not acts or not str(lines[act]["a"]).startswith("sweep") or state.to_act is None:
            continue
        ctx = screen_context("konchinka", lines, NAMES[:2], locale)
        text = KONCHINKA_UI.table(ctx, state.view(None), tr).text
        name = NAMES[lines[act]["seat"]]
        card = card_name(str(lines[act]["a"]).split()[1], locale)
        assert tr("{name}: {card} takes everything", name=name, card=card) in text
        hand = KONCHINKA_UI.hand(ctx, state.view(0), HandUI(), tr, CODEC).text
        assert all(f"{n}: " in hand for n in NAMES[:2])
        swept = True
        break
    assert swept
    lines = read_records(path)[0]
    state = replay(lines)
    ctx = screen_context("konchinka", lines, NAMES[:2], locale)
    assert state.result is not None
    for seat in range(2):
        hand = KONCHINKA_UI.hand(ctx, state.view(seat), HandUI(), tr, CODEC).text
        place = 1 if seat == state.result.winner else 2
        assert (
            tr(
                "Your place: {place} of {n} · settlement: {money}",
                place=place,
                n=2,
                money=signed(state.result.net[seat]),
            )
            in hand
        ), hand
