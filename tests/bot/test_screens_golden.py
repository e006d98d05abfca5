"""The told deals, shown in the group and in the terminal alike (ru and en): every deal one action
ended gets its result in order; a game won at the first deal says who won, why and with which
cards; the settlement's lines; headlines that say who won; the events and moves in words."""

from __future__ import annotations

import dataclasses
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.games import game_ui
from bot.render.table_context import TableContext
from bot.runtime.outcome import events_of
from bot.runtime.scoreboard import Standings
from bot.terminal.play import play_main
from engine.cards import Card
from engine.core import Line, State
from engine.games import new_game
from engine.players import computer
from engine.trick.view import SideBonus, TrickView
from tests.bot.golden import CHATS, assert_golden, show
from tests.bot.terminal_driver import drive

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"),
    "en": ("Anya", "Boris", "Vera", "Gleb", "Dina", "Egor"),
}


def context(state: State, locale: str, options: dict[str, object]) -> TableContext:
    return TableContext(
        table_id=42,
        game=state.game,
        chat_title=CHATS[locale],
        names=NAMES[locale][: state.players],
        match_no=1,
        moves=0,
        bot_username="mushka_test_bot",
        options=options,
    )


LEVEL = "easy"
"""The computers of these screens: the simple player, whose play the searching levels' changes
leave alone, so each situation stays at its seed and move."""


def computers_play(
    game: str, players: int, seed: int, options: dict[str, str], moves: int
) -> tuple[State, Any, list[Line]]:
    """Every seat played by the computer (seeded) for ``moves`` actions: the state, the public
    view before the last one and the lines it wrote."""
    state = new_game(game, players, seed, options)
    policy = computer(game, LEVEL)
    rngs = [random.Random(seed * 31 + s) for s in range(players)]
    before: Any = state.view(None)
    lines: list[Line] = []
    for _ in range(moves):
        seat = state.to_act
        assert seat is not None
        before = state.view(None)
        lines = list(state.apply(seat, policy(state.view(seat), rngs[seat])))
    return state, before, lines


def screens(state: State, before: Any, lines: list[Line], locale: str) -> str:
    """The group's screens after the action: the table as the deal ended, the results, the
    game's result if it ended."""
    ui = game_ui(state.game)
    assert ui is not None
    tr = CATALOGUES.tr(locale)
    ctx = context(state, locale, dict(state.record()[0]["options"]))
    events = events_of(lines)
    out = [
        show(ui.ended_table(ctx, before, events, tr)),
        show(ui.deal_result(ctx, events, state.view(None), tr)),
    ]
    end = next((ln for ln in reversed(lines) if ln.get("t") == "end"), None)
    if end is not None:
        result = state.result
        winner = result.winner if result is not None else None
        out.append(show(ui.match_result(ctx, end, winner, Standings(), 1, tr, CODEC)))
    return "\n".join(out)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_two_deals_ended_in_one_action_both_have_their_results(locale: str) -> None:
    # Мистигри, 5 players, target 10, seed 6: the 30th action ends deal 2, deal 3 is won at the
    # deal by the king of clubs and four cards of one suit (§1.3.11)
    state, before, lines = computers_play("mistigri", 5, 6, {"target": "10"}, 30)
    assert sum(1 for ln in lines if ln.get("t") == "deal_end") == 2
    text = screens(state, before, lines, locale)
    deal = {"ru": "Сдача", "en": "Deal"}[locale]
    assert f"📋 <b>{deal} 2</b>" in text and f"📋 <b>{deal} 3</b>" in text
    assert text.index(f"{deal} 2</b>") < text.index(f"{deal} 3</b>")
    instant = text[text.index(f"{deal} 3</b>") :]
    assert {"ru": "Взятки", "en": "Tricks"}[locale] not in instant  # nobody declared
    assert_golden("two_deals_one_action", locale, text)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_game_won_at_the_first_deal_says_who_why_and_the_cards(locale: str) -> None:
    state = new_game("mistigri", 3, 1528, {})
    assert state.is_over
    text = screens(state, state.view(None), state.record(), locale)
    assert "K♣" in text or "К♣" in text
    assert_golden("instant_first_deal", locale, text)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_terminal_says_a_game_won_at_the_first_deal(locale: str) -> None:
    out = io.StringIO()
    args = ["mistigri", "--players", "3", "--lang", locale, "--seed", "1528"]
    assert play_main(args, io.StringIO(""), out, io.StringIO()) == 0
    assert_golden("terminal_instant_first_deal", locale, out.getvalue())


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_terminal_shows_both_deals_ended_in_one_move(locale: str) -> None:
    args = ["mistigri", "--lang", locale, "--seed", "7", "--players", "5", "--option", "target=10"]
    out = drive(args).out
    deal = {"ru": "📋 Сдача", "en": "📋 Deal"}[locale]
    heads = [ln for ln in out.splitlines() if ln.startswith(deal)]
    assert [h.split(" ·")[0] for h in heads] == [f"{deal} {n}" for n in (1, 2, 3)]
    rule = out.rindex("─" * 40, 0, out.index(f"{deal} 2"))
    start = out.rindex("\n", 0, rule - 1) + 1
    if out.startswith("→ ", start):  # the trick the move completed: the move is above it
        start = out.rindex("\n", 0, start - 1) + 1
    tail = out[start:]  # from the move that ended both deals
    assert "🂠" not in tail.split("\n")[0]  # the last card of the deal is named
    assert_golden("terminal_two_deals_one_move", locale, tail)


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("mistigri", ["--option", "target=5"]),
        ("pamfil", ["--option", "target=5"]),
        ("shutikha", ["--option", "target=5"]),
        ("konchinka", ["--option", "target=5"]),
        ("lenturlu", []),
    ],
)
def test_the_others_moves_are_told_in_words(game: str, options: list[str], locale: str) -> None:
    out = drive([game, "--seed", "5", "--level", "easy", "--lang", locale, *options]).out
    moves = [ln.split(": ", 1)[1] for ln in out.splitlines() if ln.startswith("🤖") and ": " in ln]
    assert moves
    engine = {"play", "pass", "announce", "retrump", "discard", "card", "run", "buy"}
    engine |= {"capture", "trail", "sweep"}
    for move in moves:
        assert move.split()[0] not in engine, move  # RECORD.md's verbs are not words to read
        assert "🂠" not in move, move  # a count is said, never a face-down card


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_settlement_labels_the_pulka_money_the_side_ledger_and_their_total(
    locale: str,
) -> None:
    state = new_game("mistigri", 3, 1528, {})
    text = screens(state, state.view(None), state.record(), locale)
    labels = {
        "ru": ("За пульку (очко 1): ", "Побочный счёт: ", "Итого: "),
        "en": ("Pulka money (point 1): ", "Side ledger: ", "Total: "),
    }[locale]
    result = text[text.index("🏁") :]  # the game's result (the deal's has its own side line)
    rows = [next(ln for ln in result.splitlines() if ln.startswith(label)) for label in labels]
    figures = [[int(f.replace("−", "-")) for f in re.findall(r"[+−]\d+", r)] for r in rows]
    pulka, side, total = figures
    assert [p + s for p, s in zip(pulka, side, strict=True)] == total
    assert pulka != total  # the first figure is the pulka's alone, not the sum


@pytest.mark.parametrize(
    ("locale", "head"),
    [
        ("ru", "🏁 <b>Партия 1</b> — победитель: Борис (досрочно: догнать уже нельзя)"),
        ("en", "🏁 <b>Game 1</b> — winner: Boris (early: nobody can catch up)"),
    ],
)
def test_a_konchinka_won_early_says_who_won(locale: str, head: str) -> None:
    ui = game_ui("konchinka")
    assert ui is not None
    state = new_game("konchinka", 3, 1, {})
    ctx = context(state, locale, {})
    end: Line = {  # RECORD.md §R9.5, whole
        "t": "end",
        "reason": "certain",
        "winner": 1,
        "totals": [3, 11, 2],
        "deals": 2,
        "payment": "mushka",
        "net": [-12, 13, -1],
    }
    text = ui.match_result(ctx, end, 1, Standings(), 1, CATALOGUES.tr(locale), CODEC).text
    assert text.split("\n")[0] == head


def events_screens(game: str, seed: int, moves: int, locale: str, seat: int | None) -> str:
    """After ``moves`` computer actions: the action's events in words, the group's table and
    (``seat``) that seat's hand."""
    state, _, lines = computers_play(game, 3, seed, {}, moves)
    ui = game_ui(game)
    assert ui is not None and ui.events is not None
    tr = CATALOGUES.tr(locale)
    ctx = context(state, locale, dict(state.record()[0]["options"]))
    out = [
        "\n".join(ui.events(ctx, events_of(lines), tr)) + "\n",
        show(ui.table(ctx, state.view(None), tr)),
    ]
    if seat is not None:
        out.append(show(ui.hand(ctx, state.view(seat), HandUI(), tr, CODEC)))
    return "\n".join(out)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_queen_of_spades_dealt_out_of_the_stock_is_said(locale: str) -> None:
    # Шутиха, seed 1: the 99th action ends the declarations with the Q♠ in the stock (§1.3.12)
    text = events_screens("shutikha", 1, 99, locale, 0)
    assert {"ru": "Дама пик оставалась в прикупе", "en": "The Q♠ was still"}[locale] in text
    assert {"ru": "Дама пик сдана из прикупа", "en": "The Q♠ was dealt out"}[locale] in text
    assert "card(s)" not in text
    assert_golden("shutikha_dealt_out", locale, text)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_pamfil_announced_is_said_and_stays_on_the_table(locale: str) -> None:
    text = events_screens("pamfil", 1, 46, locale, None)
    assert text.count("📣") == 2  # the move's news, and the table's line during the deal
    assert_golden("pamfil_announced", locale, text)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_mistigri_flush_is_said(locale: str) -> None:
    text = events_screens("mistigri", 7, 174, locale, None)
    assert {"ru": "показывает одномастку", "en": "shows a flush"}[locale] in text.split("\n")[0]
    assert {"ru": "Показаны одномастки: Аня ♠", "en": "Flushes shown: Anya ♠"}[locale] in text
    assert_golden("mistigri_flush_shown", locale, text)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_ones_own_flush_is_said_in_the_hand(locale: str) -> None:
    state = new_game("mistigri", 3, 2, {})
    view = state.view(state.to_act)
    assert view.phase == "declare"
    flush = tuple(Card.parse(c) for c in ("AH", "KH", "QH", "8H", "7H"))
    ui = game_ui("mistigri")
    assert ui is not None
    tr = CATALOGUES.tr(locale)
    ctx = context(state, locale, {})
    text = ui.hand(ctx, dataclasses.replace(view, hand=flush), HandUI(), tr, CODEC).text
    said = {"ru": "У вас одномастка", "en": "Your hand is a flush"}[locale]
    assert said in text
    plain = ui.hand(ctx, view, HandUI(), tr, CODEC).text
    assert said not in plain


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("ru", "play: manner=x нельзя: допустимые значения — king, out."),
        ("en", "play: manner=x is not allowed: one of king, out."),
    ],
)
def test_an_option_refused_lists_its_values_apart(locale: str, said: str) -> None:
    err = io.StringIO()
    args = ["lenturlu", "--option", "manner=x", "--lang", locale]
    assert play_main(args, io.StringIO(""), io.StringIO(), err) != 0
    assert said in err.getvalue()


def test_english_titles_have_one_kind_of_quotes() -> None:
    for path in (ROOT / "locales" / "en" / "LC_MESSAGES").glob("*.po"):
        catalogue = CATALOGUES.tr("en").messages
        assert catalogue  # loaded
        text = path.read_text(encoding="utf-8")
        strings = [ln for ln in text.splitlines() if ln.startswith("msgstr")]
        assert not [s for s in strings if "«" in s or "»" in s], path.name


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_no_card_s_and_no_inverted_must_capture(locale: str) -> None:
    messages = CATALOGUES.tr(locale).messages
    texts = list(messages.values())
    assert not [t for t in texts if "card(s)" in str(t)]
    assert not [t for t in texts if "Взять нужно" in str(t)]


def test_the_first_of_two_deals_keeps_its_side_bonus() -> None:
    # a flush bonus booked earlier in deal 2 (§1.3.10.2), then deal 3 won at the deal: the
    # public view keeps deal 2's bonuses as ``previous_bonuses``
    state, _, lines = computers_play("mistigri", 5, 6, {"target": "10"}, 30)
    public = state.view(None)
    assert isinstance(public, TrickView)
    view = dataclasses.replace(public, previous_bonuses=(SideBonus("flush", 1, 5),))
    ui = game_ui("mistigri")
    assert ui is not None
    tr = CATALOGUES.tr("en")
    ctx = context(state, "en", {})
    text = ui.deal_result(ctx, events_of(lines), view, tr)
    deal2, deal3 = text.split("\n\n")
    assert "Side ledger: Boris has the best flush: +5 from each" in deal2
    assert "Side ledger" not in deal3


def test_the_view_keeps_the_bonuses_of_the_deal_before_the_last() -> None:
    state = new_game("mistigri", 3, 1, {})
    policy = computer("mistigri", LEVEL)
    rngs = [random.Random(1 * 31 + s) for s in range(3)]
    ended: list[tuple[SideBonus, ...]] = [()]
    while (seat := state.to_act) is not None:
        lines = state.apply(seat, policy(state.view(seat), rngs[seat]))
        if any(ln.get("t") == "deal_end" for ln in lines):
            view = state.view(None)
            assert isinstance(view, TrickView)
            assert view.previous_bonuses == ended[-1]  # the one before is kept
            ended.append(view.ended_bonuses)
    assert any(ended)  # some deal had a bonus
