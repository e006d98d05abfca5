"""Every figure says where it comes from, in the trick family's screens and the terminal (ru and
en): a Шутиха write-off names its шутиха trick (RULES.md §1.5.5), Памфил's announcement is
offered on the hand with what it pays and told once (§1.3.7), its J♣ stands among the trumps
(§1.4.2), the dealer's hand says he may take the turn-up (§1.2.2), and a number of cards agrees
with its noun («меняет 4 карты», «вам пришла ещё 1 карта»)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues
from bot.presses.meaning import HandUI
from bot.render.action_words import narrated
from bot.render.cards import SUIT_SYMBOL, card_name
from bot.render.games import game_ui
from bot.render.table_context import TableContext
from bot.runtime.outcome import events_of
from engine.cards import Card
from engine.core import Line, State
from engine.games import new_game
from engine.players import computer
from engine.trick.actions import Announce, Discard, Exchange
from engine.trick.events import BOOK, TrickDealEnd, TrickWon
from engine.trick.rules import TrickPhase
from engine.trick.view import TrickView
from tests.bot.golden import assert_golden, show
from tests.bot.terminal_driver import drive

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = {"ru": ("Аня", "Борис", "Вера", "Глеб"), "en": ("Anya", "Boris", "Vera", "Gleb")}
QS = Card.parse("QS")
KS = Card.parse("KS")


def ru_cards(n: int) -> str:
    """The Russian noun after a number (the test's own reading of the rule)."""
    if n % 10 == 1 and n % 100 != 11:
        return "карту"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "карты"
    return "карт"


def context(state: State, locale: str) -> TableContext:
    return TableContext(
        table_id=42,
        game=state.game,
        chat_title="Пятница",
        names=NAMES[locale][: state.players],
        match_no=1,
        moves=0,
        bot_username="mushka_test_bot",
        options=dict(state.record()[0]["options"]),
    )


def played(game: str, seeds: range, players: int = 3) -> Iterator[tuple[State, list[Line]]]:
    """Computers play ``game`` for each seed in turn: the state after every action, and the
    lines that action wrote (bounded: the games end)."""
    for seed in seeds:
        state = new_game(game, players, seed, {})
        policy = computer(game, "normal")
        rng = random.Random(seed)
        while (seat := state.to_act) is not None:
            yield state, list(state.apply(seat, policy(state.view(seat), rng)))


def views(game: str, seeds: range) -> Iterator[tuple[State, TrickView]]:
    """The view of the seat to act, before every action of :func:`played`'s games."""
    for state, _ in played(game, seeds):
        if state.to_act is not None:
            view = state.view(state.to_act)
            assert isinstance(view, TrickView)
            yield state, view


def hand_text(state: State, view: TrickView, locale: str) -> tuple[str, Any]:
    ui = game_ui(state.game)
    assert ui is not None
    shown = ui.hand(context(state, locale), view, HandUI(), CATALOGUES.tr(locale), CODEC)
    return shown.text, shown.markup


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_others_exchanges_count_their_cards_in_words_that_agree(locale: str) -> None:
    out = drive(["mushka", "--seed", "3", "--level", "easy", "--lang", locale]).out
    word = {"ru": "меняет", "en": "exchanges"}[locale]
    said = re.findall(rf"{word} (\d+) (\w+)", out)
    assert said, out[-2000:]
    for n, noun in said:
        expected = ru_cards(int(n)) if locale == "ru" else ("card" if n == "1" else "cards")
        assert noun == expected, (n, noun)
    assert "карт:" not in out


@pytest.mark.parametrize(
    ("locale", "action", "said"),
    [
        ("ru", "buy 1", "покупает 1 карту"),
        ("ru", "buy 3", "покупает 3 карты"),
        ("ru", "buy 5", "покупает 5 карт"),
        ("ru", "discard 7S 8S", "сбрасывает 2 карты"),
        ("ru", "play 1 7S up", "играет, меняет 1 карту, берёт открытую карту"),
        ("en", "buy 1", "buys 1 card"),
        ("en", "buy 3", "buys 3 cards"),
        ("en", "discard 7S", "discards 1 card"),
        ("en", "play 2 7S 8S", "plays, exchanges 2 cards"),
    ],
)
def test_a_counted_move_is_told_with_its_noun(locale: str, action: str, said: str) -> None:
    assert narrated(action, CATALOGUES.tr(locale)) == said


def shutikha_sources(deal: list[Any], seat: int) -> tuple[str, int] | None:
    """What the seat's шутиха trick gave him in ``deal``'s tricks (RULES.md §1.5.5, the test's
    own reading): ("won", 8), ("taken", 5) with the K♠, ("beaten", 4); None: no such trick."""
    for trick in deal:
        cards = dict(trick.plays)
        if QS not in cards.values():
            continue
        holder = next(s for s, c in cards.items() if c == QS)
        if trick.winner == seat == holder:
            return "won", 8
        if trick.winner == seat and cards.get(seat) == KS:
            return "taken", 5
        if holder == seat:
            return "beaten", 4
    return None


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_shutikha_write_off_names_the_shutikha_trick(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    ui = game_ui("shutikha")
    assert ui is not None
    label = {"ru": "шутиха", "en": "shutikha"}[locale]
    beaten = {"ru": "шутиха бита", "en": "shutikha beaten"}[locale]
    seen: set[str] = set()
    shown: list[str] = []  # the first deal result of each kind
    for state, lines in played("shutikha", range(1, 40)):
        typed = BOOK.read(events_of(lines))
        end = next((e for e in typed if isinstance(e, TrickDealEnd)), None)
        if end is None or not any(isinstance(e, TrickWon) for e in typed):
            continue
        record = state.record()
        at = max(i for i, ln in enumerate(record) if ln.get("t") == "deal_end")
        start = max(i for i, ln in enumerate(record[:at]) if ln.get("t") == "deal")
        deal = [e for e in BOOK.read(record[start:at]) if isinstance(e, TrickWon)]
        text = ui.deal_result(context(state, locale), events_of(lines), state.view(None), tr)
        written = next(ln for ln in text.splitlines() if ln.startswith(("Списано", "Written")))
        for s in end.seats:
            source = shutikha_sources(deal, s.seat)
            if source is None or not s.written_off:
                continue
            kind, value = source
            others = s.written_off - value  # every other trick is worth 1
            split = f"{value}+{others}" if others else str(value)
            name = NAMES[locale][s.seat]
            figure = f"{name} {s.before}→{s.before - s.written_off}".replace("→-", "→−")
            said = f"{beaten}: {split}" if kind == "beaten" else f"{label}: {split}"
            assert f"{figure} ({said})" in written, written
            if kind not in seen and text not in shown:
                shown.append(text)
            seen.add(kind)
        if seen == {"won", "taken", "beaten"}:
            break
    assert seen == {"won", "taken", "beaten"}
    assert_golden("shutikha_written_off", locale, "\n\n".join(shown))


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("ru", "Дама пик сдана из прикупа: вам пришла ещё 1 карта. Сбросьте столько же"),
        ("en", "The Q♠ was dealt out of the stock: you received 1 more card. Discard 1"),
    ],
)
def test_one_card_dealt_out_to_the_hand_is_one_card(locale: str, said: str) -> None:
    for state, view in views("shutikha", range(1, 60)):
        if view.phase != TrickPhase.DISCARD:
            continue
        need = {len(a.cards) for a in view.legal if isinstance(a, Discard)}
        if need == {1}:
            text, _ = hand_text(state, view, locale)
            assert said in text, text
            return
    pytest.fail("no hand received a single card out of the stock")


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_pamfil_is_offered_on_the_hand_with_what_it_pays_and_among_the_trumps(
    locale: str,
) -> None:
    offer = {
        "ru": "📣 Можно объявить памфил: +5 с каждого в побочный счёт.",
        "en": "📣 You may announce the pamfil: +5 from each on the side ledger.",
    }[locale]
    mark = {"ru": "В♣ (памфил)", "en": "J♣ (pamfil)"}[locale]
    for state, view in views("pamfil", range(1, 60)):
        may = any(isinstance(a, Announce) for a in view.legal)
        trump = view.trump
        if not may or trump is None or trump is view.privileged.suit:
            continue
        text, markup = hand_text(state, view, locale)
        assert offer in text, text
        cards = next(ln for ln in text.splitlines() if ln.startswith(("Ваши карты", "Your cards")))
        trumps = cards.split(": ", 1)[1].split(" · ")[0]  # the first group: the trump suit's
        assert trumps.startswith(SUIT_SYMBOL[trump]) and trumps.endswith(mark), cards
        first_row = [b.text.strip("·✓") for b in markup.inline_keyboard[0]]
        assert first_row[-1] == card_name(view.privileged, locale), first_row
        others = state.view((view.seat or 0) + 1 if view.seat == 0 else 0)
        assert isinstance(others, TrickView)
        assert offer not in hand_text(state, others, locale)[0]  # nobody else is asked
        ui = game_ui("pamfil")
        assert ui is not None
        tr = CATALOGUES.tr(locale)
        assert_golden(
            "pamfil_hand_offer",
            locale,
            show(ui.hand(context(state, locale), view, HandUI(), tr, CODEC)),
        )
        return
    pytest.fail("no pamfil holder declared under a trump other than clubs")


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_pamfil_announced_is_told_once_in_one_case(locale: str) -> None:
    game = drive(["pamfil", "--seed", "2", "--level", "easy", "--lang", locale])
    announced = sum(1 for ln in game.state.record() if str(ln.get("a", "")) == "announce")
    assert announced >= 1
    said = {"ru": "объявляет памфил", "en": "announces the pamfil"}[locale]
    assert game.out.count(said) == announced, game.out
    assert "памфила" not in game.out
    paid = {"ru": "📣 Бонус за памфил — ", "en": "📣 Pamfil bonus — "}[locale]
    assert game.out.count(paid) == announced


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("ru", "Сдача ваша: можно взять открытую карту ({card}) вместо одной из прикупа."),
        ("en", "Your deal: you may take the turn-up ({card}) in place of a card from the stock."),
    ],
)
def test_the_dealers_right_to_the_turn_up_is_said_on_his_hand(locale: str, said: str) -> None:
    dealer = other = False
    for state, view in views("mushka", range(1, 20)):
        if view.phase != TrickPhase.DECLARE or view.turn_up is None:
            continue
        text, _ = hand_text(state, view, locale)
        line = said.format(card=card_name(view.turn_up, locale))
        up = any(isinstance(a, Exchange) and a.up for a in view.legal)
        if view.seat == view.dealer and up:
            assert line in text, text
            if not dealer:
                assert_golden("mushka_hand_dealer", locale, text)
            dealer = True
        else:
            assert line not in text, text
            other = True
        if dealer and other:
            return
    pytest.fail("no dealer declared with the turn-up on the table")


@pytest.mark.parametrize(
    ("locale", "lead", "follow", "exchanged"),
    [
        ("ru", "Взятка {no}: <b>ваш ход</b> — вы ходите первым", "→ <b>ваш ход</b>", "Сброшены:"),
        ("en", "Trick {no}: <b>your turn</b> — you lead", "→ <b>your turn</b>", "Exchanged:"),
    ],
)
def test_a_hand_that_leads_says_so_and_its_exchange_is_news_only_through_the_first_trick(
    locale: str, lead: str, follow: str, exchanged: str
) -> None:
    """«Взятка 2: … → ваш ход» with nothing on the table read as if a card were there: the
    leader is told he leads; «Сброшены: … → пришли: …» stays through the first trick only."""
    leads = follows = later = 0
    for state, view in views("mushka", range(1, 12)):
        if view.phase != TrickPhase.PLAY:
            continue
        text, _ = hand_text(state, view, locale)
        if not view.trick:
            assert lead.format(no=view.trick_no) in text, text
            assert follow not in text, text
            leads += 1
        else:
            assert follow in text and lead.format(no=view.trick_no) not in text, text
            follows += 1
        if view.trick_no > 1:
            assert exchanged not in text, text
            later += 1
    assert leads and follows and later
