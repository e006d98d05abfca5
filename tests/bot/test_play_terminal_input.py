"""What a person types at ``python -m bot play``: either alphabet's ranks, any case, suit letters
or symbols, the count optional, the screen's words; an ambiguous line asks, never plays; a long
choice is named card by card and confirmed with Enter (ru and en)."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest

from bot.i18n import Catalogues
from bot.render.action_words import Verb, action_parts, words_of
from bot.terminal.hints import terminal_words
from bot.terminal.play import LOCALES, parse_args
from bot.terminal.session import Session
from bot.terminal.typed_moves import Ask, Marked, Named, Which, WhichCards, resolve
from bot.terminal.typed_words import TypedLine, Vocabulary, read
from engine.cards import Card
from engine.core import State
from engine.games import new_game
from engine.players import computer
from engine.trick.actions import PASS, Exchange
from tests.bot.test_play_terminal import first_turn

CATALOGUES = Catalogues.load(LOCALES)


def words(locale: str) -> Vocabulary:
    return Vocabulary.of(terminal_words(CATALOGUES.tr(locale)), locale)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


@pytest.mark.parametrize(
    ("locale", "line", "verbs", "number", "named"),
    [
        ("ru", "play 2 7c 7d", {Verb.PLAY}, 2, "7C 7D"),
        ("ru", "play 2 7♣ 7♦", {Verb.PLAY}, 2, "7C 7D"),
        ("en", "play 7C 7D", {Verb.PLAY}, None, "7C 7D"),
        ("ru", "сменить Тп, вч", {Verb.PLAY}, None, "AS JH"),  # ru letters, ru suit letters
        ("ru", "Д♠ к♣ 10♦ T♥", None, None, "QS KC 10D AH"),  # Latin T looks like «Т»: an ace
        ("en", "Q♠ kc 10d T♥", None, None, "QS KC 10D 10H"),  # in en a T is a ten
        ("ru", "7♣7♦", None, None, "7C 7D"),
        ("ru", "7 ♣", None, None, "7C"),
        ("ru", "пас", {Verb.PASS}, None, ""),
        ("ru", "Играю", {Verb.PLAY}, None, ""),
        ("ru", "купить 1", {Verb.BUY}, 1, ""),
        ("en", "Buy 2", {Verb.BUY}, 2, ""),
        ("ru", "взять 9♦ → 9♥, 2♦ 7♠", {Verb.CAPTURE}, None, "9D 9H 2D 7S"),
        ("en", "capture 8H = 8C + 3D 5S", {Verb.CAPTURE}, None, "8H 8C 3D 5S"),  # RECORD.md
    ],
)
def test_lines_a_person_types(
    locale: str, line: str, verbs: set[Verb] | None, number: int | None, named: str
) -> None:
    typed = read(line, words(locale))
    assert typed.unknown == ()
    assert typed.verbs == (frozenset(verbs) if verbs else None)
    assert typed.number == number
    assert typed.cards == cards(named)


def test_a_rank_alone_is_a_rank_not_a_stop() -> None:
    typed = read("В", words("ru"))
    assert typed.cards == () and [r.value for r in typed.ranks] == ["J"]
    assert read("j", words("en")).ranks == typed.ranks


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_an_exchange_typed_every_way(locale: str) -> None:
    state, seat = first_turn(["mushka", "--seed", "3"])  # ♠ 10 · ♦ Т 8 · ♥ 9 8, not dealer
    legal = state.legal_actions(seat)
    want = Exchange(cards("10S 8H"))
    w = words(locale)
    for line in ("play 2 10s 8h", "play 2 10♠ 8♥", "PLAY 10S 8H", "play 10♠, 8♥"):
        assert resolve(read(line, w), legal, ()) == Named(want), line
    said = {
        "ru": ("пас", "играю", "играю без замены", "играю, сменить: 10♠ 8♥"),
        "en": ("pass", "play", "keep all", "exchange 10♠ 8♥"),
    }
    passed, play, keep, exchange = said[locale]
    assert resolve(read(passed, w), legal, ()) == Named(PASS)
    assert resolve(read(play, w), legal, ()) == WhichCards()  # which cards? never «none»
    assert resolve(read(play, w), legal, cards("10S 8H")) == Named(want)  # the marked ones
    assert resolve(read(keep, w), legal, ()) == Named(Exchange(()))
    assert resolve(read(exchange, w), legal, ()) == Named(want)
    # one at a time: marks, then Enter
    first = resolve(read("10♠", w), legal, ())
    assert isinstance(first, Marked) and first.marks == cards("10S")
    second = resolve(read("8♥", w), legal, first.marks)
    assert isinstance(second, Marked) and second.exact == (want,)
    assert resolve(TypedLine(), legal, second.marks, confirm=True) == Named(want)
    # a card named again is unmarked
    again = resolve(read("10♠", w), legal, second.marks)
    assert isinstance(again, Marked) and again.marks == cards("8H")


def test_the_dealers_exchange_asks_about_the_turn_up() -> None:
    state, seat = first_turn(["mushka", "--seed", "2"])  # the dealer: 64 exchanges
    legal = state.legal_actions(seat)
    assert len(legal) == 64
    card = next(c for c in action_parts(legal[-1]).cards)
    marked = resolve(read(str(card), words("en")), legal, ())
    assert isinstance(marked, Marked) and len(marked.exact) == 2
    asked = resolve(TypedLine(), legal, marked.marks, confirm=True)
    assert isinstance(asked, Ask) and {action_parts(a).up for a in asked.options} == {False, True}
    up = resolve(read(f"play {card} up", words("en")), legal, ())
    assert isinstance(up, Named) and action_parts(up.action).up
    plain = resolve(read(f"play {card}", words("en")), legal, ())  # said without: without
    assert isinstance(plain, Named) and not action_parts(plain.action).up


def test_a_rank_without_its_suit_asks_which_card() -> None:
    state, seat = first_turn(["mushka", "--seed", "3"])  # two eights: 8♦ 8♥
    legal = state.legal_actions(seat)
    asked = resolve(read("8", words("ru")), legal, ())
    assert asked == Which(cards("8D 8H"))
    ten = resolve(read("10", words("ru")), legal, ())  # one ten: it is that card
    assert isinstance(ten, Marked) and ten.marks == cards("10S")


def turns(game: str, players: int, seed: int) -> Iterator[tuple[State, int]]:
    """Seat 0's turns of one game the computers play to its end."""
    options = {} if game in ("kopilka", "lenturlu") else {"target": "5"}
    state = new_game(game, players, seed, options)
    policy, rng = computer(game, "easy"), random.Random(seed)
    while (seat := state.to_act) is not None:
        if seat == 0:
            yield state, seat
        state.apply(seat, policy(state.view(seat), rng))


GAME_SEATS = [
    ("mushka", 3), ("mushka", 4), ("pamfil", 3), ("shutikha", 4), ("mistigri", 3),
    ("kopilka", 4), ("lenturlu", 3), ("konchinka", 2), ("konchinka", 4),
]  # fmt: skip


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize(("game", "players"), GAME_SEATS)
def test_the_words_shown_for_a_move_play_it(game: str, players: int, locale: str) -> None:
    """Every move's words (the numbered list's, the move line's) typed back name that move."""
    tr = terminal_words(CATALOGUES.tr(locale))
    w = Vocabulary.of(tr, locale)
    seen: set[str] = set()
    for seed in (1, 2):
        for state, seat in turns(game, players, seed):
            legal = state.legal_actions(seat)
            for action in random.Random(seed).sample(list(legal), min(len(legal), 25)):
                said = words_of(action, tr)
                assert resolve(read(said, w), legal, ()) == Named(action), said
                seen.add(action_parts(action).verb)
    assert seen  # some moves were checked


def scripted(args: list[str], lines: list[str]) -> tuple[bool, str]:
    """The session in-process with these typed lines (then the input ends)."""
    setup = parse_args(args)
    tr = CATALOGUES.tr(setup.locale)
    state = new_game(setup.game, setup.players, setup.seed, setup.options)
    feed = iter(lines)
    out = io.StringIO()
    session = Session(
        setup, state, tr, lambda: next((f"{ln}\n" for ln in feed), None), out, echo=True
    )
    return session.play(), out.getvalue()


@pytest.mark.parametrize(
    ("locale", "count", "marked", "enter"),
    [
        ("ru", "Назовите свой ход", "Отмечено: 8♦.", "Enter — ряд 8♦ 9♣ 10♠."),
        ("en", "Name your move", "Marked: 8♦.", "Enter plays: run 8♦ 9♣ 10♠."),
    ],
)
def test_a_lenturlu_lead_is_named_not_listed(
    locale: str, count: str, marked: str, enter: str
) -> None:
    args = ["lenturlu", "--seed", "4", "--lang", locale]
    state, seat = first_turn(args)
    runs = [str(a) for a in state.legal_actions(seat)]
    assert len(runs) == 183 and "run 8D 9C 10S" in runs
    _, out = scripted(args, ["8♦", "9c", "10♠", ""])
    hint, before = out.split(count)[1].split("\n", 1)
    assert "183" not in hint  # the engine's count of runs is no help to a player
    assert "  1. " not in out.split(count)[0].rsplit("────", 1)[-1]  # no wall of numbers
    assert marked in before and enter in before
    told = {"ru": "Игрок: кладёт ряд 8♦ 9♣ 10♠", "en": "Player: plays the run 8♦ 9♣ 10♠"}
    assert told[locale] in out  # one's own move told as the others' are


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize(
    ("label", "verb", "up", "nothing"),
    [
        ("✅ Play", Verb.PLAY, False, False),
        ("🙅 Pass", Verb.PASS, False, False),
        ("Keep all", Verb.PLAY, False, True),
        ("🔄 Exchange {n}", Verb.PLAY, False, False),
        ("🔄 Exchange {n} with the turn-up", Verb.PLAY, True, False),
        ("📣 Announce pamfil", Verb.ANNOUNCE, False, False),
        ("🗑 Discard {n}", Verb.DISCARD, False, False),
        ("🛒 Buy {n}", Verb.BUY, False, False),
    ],
)
def test_the_hand_buttons_words_are_typed_as_shown(
    locale: str, label: str, verb: Verb | None, up: bool, nothing: bool
) -> None:
    shown = CATALOGUES.tr(locale)(label, n=1)
    typed = read(shown, words(locale))
    assert typed.unknown == (), shown
    assert typed.verbs == (frozenset({verb}) if verb else None), shown
    assert (typed.up, typed.nothing) == (up, nothing), shown
    assert typed.number == (1 if "{n}" in label else None), shown
