"""PRODUCT.md §14, RULES.md §1: the trick family's screens never show a hidden card.

Pure (no Telegram): seeded pulkas of Мушка, Памфил, Шутиха and Мистигри are played by the
engine's computer player, and every screen of ``bot.render.games.trick.screen.TRICK_UI`` is
rendered at every step, in ru and en. Where a card is depends on the engine's ``places()``:

* the group's screens (``table``, ``ended_table``, ``deal_result``, ``match_result``) never name a
  card in any hand, the stock, the discards or the undealt deck; the turn-up, the trick in play
  and the cards taken in tricks (played face up) are public, and so is the hand an instant win
  shows (RULES.md §1.3.9), in the deal result only;
* a seat's hand screen never names a card of another seat's hand, the stock, the deck, or a
  discard that is not its own.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from bot.callbacks import PressCodec
from bot.i18n import Catalogues, Translator
from bot.presses.meaning import HandUI
from bot.presses.trick import discardable
from bot.render.cards import card_name
from bot.render.games.trick.screen import TRICK_UI
from bot.render.table_context import TableContext
from bot.rendered import Rendered
from bot.runtime.scoreboard import Standings
from engine.cards import Card
from engine.core import Line, Places, State
from engine.games import GAMES, new_game
from engine.players import policy_for, random_action
from engine.trick.actions import Discard, Exchange, Retrump
from engine.trick.view import TrickView

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
TRANSLATORS = [CATALOGUES.tr("ru"), CATALOGUES.tr("en")]
CODEC = PressCodec.from_token("123456:TEST-token")
UI = TRICK_UI
TRICK_GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
SEEDS = range(12)
RANDOM_SHARE = 0.25  # of moves made by the random player (it takes the turn-up; the other never)
MAX_STEPS = 250  # per pulka: bounded, whether or not it ends
PUBLIC = ("turn_up", "trick")  # and every ``taken<seat>``: played face up (§1.4)


def secret(places: Places, *, but: Iterable[Card] = ()) -> set[Card]:
    """Every card nobody may see on the group's screens (``but``: those shown lawfully)."""
    hidden = {
        card
        for place, cards in places.items()
        if place not in PUBLIC and not place.startswith("taken")
        for card in cards
    }
    return hidden - set(but)


def others_secret(places: Places, seat: int, own_out: set[Card]) -> set[Card]:
    """What seat ``seat`` may not see: the others' hands, the stock, the deck, others' discards."""
    hidden: set[Card] = set()
    for place, cards in places.items():
        if place == "out":
            hidden.update(c for c in cards if c not in own_out)
        elif place in ("stock", "deck") or (place.startswith("hand") and place != f"hand{seat}"):
            hidden.update(cards)
    return hidden


def text_of(rendered: Rendered | str) -> str:
    if isinstance(rendered, str):
        return rendered
    labels = [
        b.text for row in (rendered.markup.inline_keyboard if rendered.markup else []) for b in row
    ]
    return "\n".join([rendered.text, *labels])


def assert_hides(text: str, hidden: set[Card], tr: Translator, where: str) -> None:
    shown = sorted(str(c) for c in hidden if card_name(c, tr.locale) in text)
    assert not shown, f"{where} ({tr.locale}) shows {shown}:\n{text}"


def own_out(record: Sequence[Line], seat: int) -> set[Card]:
    """The cards ``seat`` itself put out this deal (its exchange, discard, re-trump discard)."""
    start = max(i for i, ln in enumerate(record) if ln.get("t") == "deal")
    out: set[Card] = set()
    for ln in record[start:]:
        if ln.get("t") == "act" and ln["seat"] == seat:
            words = str(ln["a"]).split()
            if words[0] == "play":
                out.update(Card.parse(w) for w in words[2:] if w != "up")
            elif words[0] == "discard":
                out.update(Card.parse(w) for w in words[1:])
            elif words[0] == "retrump":
                out.add(Card.parse(words[2]))
    return out


def queen_dealt_out(record: Sequence[Line]) -> list[Card]:
    """The Q♠ when this deal's stock was dealt out to it (§1.3.12), else nothing."""
    start = max(i for i, ln in enumerate(record) if ln.get("t") == "deal")
    dealt = [ln for ln in record[start:] if ln.get("e") == "deal_out"]
    return [Card.parse("QS")] if dealt else []


def hand_uis(view: TrickView) -> list[HandUI]:
    """The hand message's states worth drawing now: plain, and its marking or re-trump mode."""
    uis = [HandUI()]
    if view.to_act != view.seat:
        return uis
    give = sorted(discardable(view.legal))
    if view.phase == "declare" and any(isinstance(a, Exchange) and a.cards for a in view.legal):
        uis.append(HandUI(tuple(give[:1]), "x"))
    if view.phase == "discard" and give:
        uis.append(HandUI(tuple(give[:1]), "q"))
    if view.phase == "retrump":
        spare = next((c for c in view.hand if c != view.privileged), None)
        if spare is not None:
            uis.append(HandUI((), f"t:{spare}"))
    return uis


def context(game: str, players: int, moves: int) -> TableContext:
    return TableContext(
        table_id=7,
        game=game,
        chat_title="Club",
        names=tuple(f"P{i}" for i in range(players)),
        match_no=1,
        moves=moves,
        bot_username="mushka_test_bot",
    )


def public(state: State) -> TrickView:
    view = state.view(None)
    assert isinstance(view, TrickView)
    return view


def seat_view(state: State, seat: int) -> TrickView:
    view = state.view(seat)
    assert isinstance(view, TrickView)
    return view


def play_pulka(game: str, seed: int) -> None:
    """One seeded pulka, every screen rendered and checked at every step."""
    players = seats_for(game, seed)
    state = new_game(game, players, seed, {"target": 5})
    rng = random.Random(seed)
    policy = policy_for("trick")
    for step in range(MAX_STEPS):
        ctx = context(game, players, step)
        places = state.places()
        view = public(state)
        record = state.record()
        for tr in TRANSLATORS:
            # the turn-up the dealer took was face up on the table: which card is public (§1.2.2)
            taken = [view.taken_up] if view.taken_up is not None else []
            # §1.3.12: the stock is dealt until the Q♠ comes, so where it went is seen by all
            taken += queen_dealt_out(record)
            table_secret = secret(places, but=taken)
            assert_hides(text_of(UI.table(ctx, view, tr)), table_secret, tr, "table")
            for seat in range(players):
                mine = seat_view(state, seat)
                hidden = others_secret(places, seat, own_out(record, seat)) - set(taken)
                for ui in hand_uis(mine):
                    text = text_of(UI.hand(ctx, mine, ui, tr, CODEC))
                    assert_hides(text, hidden, tr, f"hand of seat {seat} {ui}")
                    # the check sees card names: its own cards are its buttons
                    missing = [c for c in mine.hand if card_name(c, tr.locale) not in text]
                    assert not missing or mine.phase == "retrump", (missing, text)
        if state.is_over or state.to_act is None:
            return
        seat = state.to_act
        mine = seat_view(state, seat)
        if rng.random() < RANDOM_SHARE:
            action = random_action(mine.legal, rng)
        else:
            action = policy(mine, rng)
        lines = state.apply(seat, action)
        events = [{k: v for k, v in ln.items() if k != "deck"} for ln in lines]
        ended = any(ln.get("t") == "deal_end" for ln in events)
        played = {Card.parse(c) for ln in events if ln.get("e") == "trick" for _, c in ln["plays"]}
        shown = {
            Card.parse(c) for ln in events if ln.get("e") == "instant_win" for c in ln["cards"]
        }
        after = state.places()
        for tr in TRANSLATORS:
            if ended:
                text = text_of(UI.ended_table(ctx, view, events, tr))
                assert_hides(text, secret(places, but=played), tr, "ended table")
                result = UI.deal_result(ctx, events, public(state), tr)
                hidden = secret(places, but=played | shown) | secret(after, but=shown)
                assert_hides(result, hidden, tr, "deal result")
            end = next((ln for ln in events if ln.get("t") == "end"), None)
            if end is not None:
                text = text_of(
                    UI.match_result(ctx, end, end.get("winner"), Standings(), 1, tr, CODEC)
                )
                assert_hides(text, secret(after), tr, "pulka result")


def seats_for(game: str, seed: int) -> int:
    counts = GAMES[game].seat_counts
    return counts[seed % len(counts)]


def retrump_seeds(count: int) -> list[int]:
    """Памфил seeds whose first deal turns up the JC (§1.2.4: the dealer re-trumps)."""
    found = [
        seed
        for seed in range(2000)
        if new_game("pamfil", seats_for("pamfil", seed), seed, {"target": 5}).phase == "retrump"
    ]
    return found[:count]


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_14_group_screens_show_no_hidden_card_and_hands_only_their_own(game: str) -> None:
    for seed in SEEDS:
        play_pulka(game, seed)


def test_14_a_re_trump_shows_no_hidden_card() -> None:
    seeds = retrump_seeds(3)
    assert seeds
    for seed in seeds:
        play_pulka("pamfil", seed)


def test_14_a_seat_sees_its_own_exchange_and_the_table_only_how_many() -> None:
    """The exchange the checks above let through is the seat's own: drawn in its hand line."""
    for seed in range(40):
        state = new_game("mushka", 3, seed, {"target": 5})
        seat = state.to_act
        assert seat is not None
        view = seat_view(state, seat)
        exchanges = [a for a in view.legal if isinstance(a, Exchange) and len(a.cards) >= 2]
        if not exchanges:
            continue
        state.apply(seat, exchanges[0])
        mine, table = seat_view(state, seat), public(state)
        assert mine.exchange is not None and mine.exchange.discarded == exchanges[0].cards
        assert table.exchange is None and table.exchanged[seat] == len(exchanges[0].cards)
        others = [seat_view(state, s) for s in range(3) if s != seat]
        assert all(v.exchange is None for v in others)
        tr = CATALOGUES.tr("en")
        ctx = context("mushka", 3, 1)
        own = UI.hand(ctx, mine, HandUI(), tr, CODEC).text
        assert "Exchanged: " + " ".join(card_name(c, "en") for c in exchanges[0].cards) in own
        assert "exchanged: 2" in UI.table(ctx, table, tr).text
        return
    raise AssertionError("no seed with an exchange of two cards")


def test_14_no_typed_action_in_a_view_names_another_seats_card() -> None:
    """The legal actions of a seat's view give up only its own cards (their masks included)."""
    for seed in range(10):
        state = new_game("shutikha", 4, seed, {"target": 5})
        rng = random.Random(seed)
        for _ in range(60):
            seat = state.to_act
            if seat is None:
                break
            view = seat_view(state, seat)
            for action in view.legal:
                if isinstance(action, Exchange | Discard):
                    assert set(action.cards) <= set(view.hand)
                if isinstance(action, Retrump):
                    assert action.discard in view.hand
            state.apply(seat, policy_for("trick")(view, rng))
