"""Buttons that say more (PRODUCT.md §19, Bot API 9.4 and 10.3): the main action of a
screen is ``style: success``, a destructive one ``danger``; on the player's turn a card he may
not play now is sent ``disabled`` — dotted as before, its press kept, so an older client that
ignores the field still gets today's refusal (§7). A plain button's JSON is what it always was,
so every digest the outbox stored stays the same."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.app import RunningBot
from bot.callbacks import Kind, Press, PressCodec
from bot.i18n import Catalogues
from bot.presses.families import family_presses
from bot.presses.meaning import Apply, Deny, HandUI, card_of
from bot.render.action_words import action_parts
from bot.render.games import game_ui
from bot.render.lobby import cancel_keyboard, lobby, unreachable_notice
from bot.render.results import match_tail
from bot.render.seat_menu import dress
from bot.render.table_context import TableContext
from bot.rendered import Button, Keyboard, Rendered
from bot.runtime.scoreboard import Standings
from bot.storage.rows import SeatRow, TableRow, TableStatus
from engine.core import State
from engine.errors import IllegalAction
from engine.games import GAMES, new_game
from engine.players import random_action
from engine.trick import TrickState
from tests.bot.helpers import lobby_message
from tests.engine.trick.helpers import act as moves
from tests.engine.trick.helpers import fixed
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button as SentButton

CATALOGUES = Catalogues.load(Path(__file__).resolve().parents[2] / "locales")
TR = CATALOGUES.tr("en")
CODEC = PressCodec.from_token("123456:TEST-token")
NAMES = ("Anya", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ivan")


def buttons(rendered: Rendered) -> list[Button]:
    return list(rendered.markup.buttons()) if rendered.markup else []


def named(rendered: Rendered, start: str) -> Button:
    found = [b for b in buttons(rendered) if b.text.startswith(start)]
    assert len(found) == 1, [b.text for b in buttons(rendered)]
    return found[0]


def press_of(button: Button) -> Press:
    assert button.callback_data is not None
    press = CODEC.parse(button.callback_data)
    assert press is not None
    return press


def seating(n: int = 2) -> tuple[TableRow, list[SeatRow]]:
    table = TableRow(42, -100, "mushka", {"target": 5}, TableStatus.LOBBY, 100, "j", 0, 0)
    return table, [SeatRow(i, 100 + i, NAMES[i]) for i in range(n)]


# --- the JSON ---------------------------------------------------------------------------------


def test_a_plain_button_s_json_is_what_it_always_was() -> None:
    press = Button(text="✋ Join", callback_data="l:1:-:0:j~abc")
    assert press.as_json() == {"text": "✋ Join", "callback_data": "l:1:-:0:j~abc"}
    link = Button(text="🂠 My cards", url="https://t.me/b?start=h_1")
    assert link.as_json() == {"text": "🂠 My cards", "url": "https://t.me/b?start=h_1"}
    invite = Button(text="📨 Invite", switch_inline_query="")
    assert invite.as_json() == {"text": "📨 Invite", "switch_inline_query": ""}
    board = Keyboard(((press, link), (invite,)))
    assert board.dumps() == (
        '{"inline_keyboard":[[{"text":"✋ Join","callback_data":"l:1:-:0:j~abc"},'
        '{"text":"🂠 My cards","url":"https://t.me/b?start=h_1"}],'
        '[{"text":"📨 Invite","switch_inline_query":""}]]}'
    )
    # the digest of a message of plain buttons: the one the outbox stored before styled buttons
    assert Rendered("hi", board).digest() == "da19321c237616422599bb67"


def test_style_and_disabled_come_after_the_fields_and_only_when_set() -> None:
    styled = Button(text="▶️ Start", callback_data="x", style="success")
    assert json.dumps(styled.as_json()) == json.dumps(
        {"text": "▶️ Start", "callback_data": "x", "style": "success"}
    )
    off = Button(text="·7♣·", callback_data="y", disabled=True)
    # the Bot API's DisabledButton is an object that holds nothing (aiogram 3.31)
    assert list(off.as_json().items()) == [
        ("text", "·7♣·"),
        ("callback_data", "y"),
        ("disabled", {}),
    ]
    both = Button(text="✖️", callback_data="z", style="danger", disabled=True)
    assert list(both.as_json()) == ["text", "callback_data", "style", "disabled"]
    assert "disabled" not in Button(text="a", callback_data="b", disabled=False).as_json()


def test_the_new_fields_reach_aiogram_s_model() -> None:
    board = Keyboard(
        (
            (
                Button(text="a", callback_data="x", style="success"),
                Button(text="b", callback_data="y", disabled=True),
                Button(text="c", url="https://t.me/b"),
            ),
        )
    )
    first, second, third = board.to_aiogram().inline_keyboard[0]
    assert first.style == "success" and first.disabled is None
    assert second.disabled is not None and second.style is None and second.callback_data == "y"
    assert third.url == "https://t.me/b" and third.style is None and third.disabled is None
    assert board.to_aiogram().model_dump(exclude_none=True) == {
        "inline_keyboard": [
            [b.as_json() for b in board.inline_keyboard[0]],
        ]
    }


# --- styles -----------------------------------------------------------------------------------


def test_the_lobby_s_start_is_success_and_its_cancel_and_leave_danger() -> None:
    table, seats = seating()
    shown = lobby(table, seats, TR, CODEC)
    assert named(shown, "▶️").style == "success"
    assert named(shown, "✖️").style == "danger"
    assert named(shown, "🚪").style == "danger"
    join = named(shown, "✋")
    assert join.style is None and not join.disabled
    assert join.as_json() == {"text": "✋ Join", "callback_data": join.callback_data}
    picker = lobby(TableRow(42, -100, "", {}, TableStatus.LOBBY, 100, "j", 0, 0), seats, TR, CODEC)
    assert named(picker, "✖️").style == "danger"
    assert all(b.style is None for b in buttons(picker) if not b.text.startswith("✖️"))


def test_the_cancel_s_confirmation_is_danger_and_its_no_plain() -> None:
    table, seats = seating()
    board = cancel_keyboard(table, TR, CODEC)
    assert board is not None
    yes, no = board.inline_keyboard[0]
    assert yes.text == "✖️ Yes, close it" and yes.style == "danger"
    assert no.text == "↩️ No" and no.style is None
    asked = lobby(table, seats, TR, CODEC, confirm_cancel=True)
    assert named(asked, "✖️").style == "danger"
    notice = unreachable_notice(table, ["Vera"], TR, CODEC, "https://t.me/b")
    assert named(notice, "▶️").style == "success" and named(notice, "⏳").style is None


def test_the_trick_declaration_s_play_is_success_and_pass_plain() -> None:
    state = fixed("mushka", 3, 2, ["KS 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"], "9H")
    shown = hand_of(state, 0)
    assert named(shown, "✅").style == "success"
    assert named(shown, "🙅").style is None
    assert not any(b.disabled for b in buttons(shown)), "a card tap opens the exchange"


def test_the_result_s_another_game_is_success() -> None:
    ctx = context("kopilka", 0)
    shown = match_tail(ctx, ["🏁"], Standings(), 1, TR("🔁 Another partia"), TR, CODEC)
    assert named(shown, "🔁").style == "success" and named(shown, "🏁").style is None


def test_the_seat_menu_s_i_m_back_is_success() -> None:
    state = new_game("kopilka", 4, 3)
    ui = game_ui("kopilka")
    assert ui is not None
    ctx = context("kopilka", 0)
    hand = ui.hand(ctx, state.view(0), HandUI(), TR, CODEC)
    away = dress(hand, ctx, 0, TR, CODEC, away=True, menu=False)
    assert named(away, "🙋").style == "success"
    menu = dress(hand, ctx, 0, TR, CODEC, away=False, menu=True)
    assert all(b.style is None for b in buttons(menu))


# --- disabled cards ---------------------------------------------------------------------------


def context(game: str, moves_made: int) -> TableContext:
    players = max(GAMES[game].seat_counts)
    return TableContext(42, game, "Friday", NAMES[:players], 1, moves_made, "b")


def hand_of(state: TrickState, seat: int) -> Rendered:
    ui = game_ui(state.game)
    assert ui is not None
    return ui.hand(context(state.game, 0), state.view(seat), HandUI(), TR, CODEC)


def test_unplayable_cards_are_disabled_buttons_on_the_player_s_turn() -> None:
    state = fixed("mushka", 3, 2, ["KS 7S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"], "9H")
    moves(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (0, "card 8C"))
    shown = hand_of(state, 1)  # ♣ led: Boris must follow with his 7♣
    assert "\nPlayable: 7♣ (must follow ♣)" in shown.text  # the line says why, as before
    off = [b for b in buttons(shown) if b.disabled]
    assert [b.text for b in off] == ["·A♥·", "·K♥·", "·Q♥·", "·J♥·"]
    # a disabled button is a kind of its own (Bot API 10.3): it carries no press at all
    assert off[0].as_json() == {"text": "·A♥·", "disabled": {}}
    assert all(b.callback_data is None for b in off)
    playable = [b for b in buttons(shown) if not b.disabled and press_of(b).act == "p"]
    assert [b.text for b in playable] == ["7♣"]
    # the press of A♥ an older message of the hand offered is still refused as today (§7)
    older = Press(Kind.HAND, 42, 1, 0, "p", "AH")
    assert_refused(state, 1, older)
    # off-turn the cards are there to read: none is disabled
    for seat in (0, 2):
        assert not any(b.disabled for b in buttons(hand_of(state, seat)))


def assert_refused(state: State, seat: int, press: Press) -> None:
    """The press of a disabled card, as an older client sends it, is refused as today: the
    bot denies it, or the engine does (§7.2)."""
    presses = family_presses(state.game)
    assert presses is not None
    meaning = presses.interpret(state.view(seat), press.act, press.arg, HandUI())
    if isinstance(meaning, Apply):
        with pytest.raises(IllegalAction):
            state.clone().apply(seat, meaning.action)
    else:
        assert isinstance(meaning, Deny) and meaning.reason, meaning


GAMES_PLAYED = ["mushka", "pamfil", "shutikha", "mistigri", "kopilka", "lenturlu", "konchinka"]


@pytest.mark.parametrize("game", GAMES_PLAYED)
def test_every_hand_disables_exactly_its_dotted_cards_on_its_turn(game: str) -> None:
    """Seeded games played at random: on his turn a seat's card buttons are disabled exactly
    when dotted, a disabled one carries no press, a card left live is one some legal action
    plays; off-turn nothing is disabled."""
    ui = game_ui(game)
    assert ui is not None
    players = max(GAMES[game].seat_counts)
    seen_disabled = 0
    for seed in (1, 2):
        state = new_game(game, players, seed)
        rng = random.Random(seed)
        for step in range(200):
            if state.is_over or state.to_act is None:
                break
            ctx = context(game, step)
            actor = state.to_act
            for seat in range(players):
                view = state.view(seat)
                shown = ui.hand(ctx, view, HandUI(), TR, CODEC)
                if seat != actor:
                    assert not any(b.disabled for b in buttons(shown)), (seat, shown.text)
                    continue
                in_some = {c for a in view.legal for c in action_parts(a).cards}
                for button in buttons(shown):
                    dotted = button.text.startswith("·") and button.text.endswith("·")
                    assert button.disabled == dotted, (button, shown.text)
                    if button.disabled:  # a button that does nothing: no press to send
                        assert button.as_json() == {"text": button.text, "disabled": {}}
                        seen_disabled += 1
                        continue
                    press = press_of(button)
                    card = card_of(press.arg or "")
                    if card is not None and card in view.hand:  # a live card can be played
                        assert card in in_some, (button, view.legal)
            state.apply(actor, random_action(state.view(actor).legal, rng))
    assert seen_disabled, "no unplayable card was met: the test proves nothing"


# --- through the fake Bot API -----------------------------------------------------------------


async def test_the_lobby_s_start_reaches_the_client_green(
    fake_telegram: FakeTelegram, bot: RunningBot
) -> None:
    fake = fake_telegram
    anna = fake.add_user(101, "Anna", language_code="ru")
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[])
    await anna.start_bot()
    await anna.send(group, "/newgame mushka target=5")
    await fake.wait_until(lambda: lobby_message(group) is not None, timeout=10)
    shown = lobby_message(group)
    assert shown is not None

    def start(text: str) -> SentButton:
        return next(b for b in shown.all_buttons if b.text.startswith(text))

    assert start("▶️").raw.get("style") == "success"
    assert start("✖️").raw.get("style") == "danger"
    assert start("🚪").raw.get("style") == "danger"
    assert set(start("✋").raw) == {"text", "callback_data"}  # a plain button as ever
