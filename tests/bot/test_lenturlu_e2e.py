"""A whole deal of Лентюрлю through the fake Bot API (RULES.md §3), in each manner (§3.4.2) at 3
and 4 players, over the payment schemes (§3.5.2): the simulated players press only buttons the
bot sent them (a run's first card, its last card, a middle rank's row, ↩️, buy, pass), with a
restart of the bot in the middle; the 🏁 result is seen, the ledger sums to zero and matches the
engine's settlement replayed from the stored actions, the group never names a card of a hand,
and the Bot API calls of the deal are counted. One more deal presses a run with a middle rank
the hand holds twice, and the suit chosen is the one played."""

from __future__ import annotations

import json
import random
import re

import pytest

from bot.app import running_bot
from bot.config import Settings
from bot.presses import lenturlu as lp
from bot.render.cards import card_name
from engine.cards import Card
from engine.games import new_game
from tests.bot.helpers import (
    act_of,
    db_rows,
    fixed_seeds,
    hand_message,
    open_table,
    press_and_wait,
    result_message,
    table_message,
    to_act,
    watched,
)
from tests.databases import TestDatabase
from tests.fakeapi import FakeTelegram
from tests.fakeapi.model import Button, SentMessage
from tests.fakeapi.users import SimGroup, SimUser

NAMES = ["Anna", "Boris", "Vera", "Gleb"]
PRESS_LIMIT = 600  # one deal: every run sheds a card; buys draw at most the stock (7 or 4)
RESTART_AT = 5  # presses before the bot restarts (a covering king may end a deal in a dozen)
CALL_LIMIT = 3000  # Bot API calls for one whole deal, group and private together
# the screens that name the layout's five cards by design (RULES.md §3.1.2): not a hand's cards
PUBLIC_LINES = ("Ставки:", "Лентюрлю:", "Жребий")


def hand_buttons(message: SentMessage) -> dict[str, list[Button]]:
    """The hand message's press buttons by act (RULES.md §6.2 callback data)."""
    out: dict[str, list[Button]] = {}
    for b in message.all_buttons:
        if (b.callback_data or "").startswith("h:"):
            out.setdefault(act_of(b)[0], []).append(b)
    return out


def undotted(buttons: list[Button]) -> list[Button]:
    return [b for b in buttons if not b.text.startswith("·")]


def choose(message: SentMessage, rng: random.Random) -> Button:
    """A press the hand offers now: a middle rank's card (mode m), a run's last card (mode r),
    else a run's first card, a buy or a pass; ↩️ sometimes while a run is being picked."""
    by_act = hand_buttons(message)
    if "c" in by_act or "l" in by_act:
        if rng.random() < 0.1:
            return by_act["z"][0]
        if "c" in by_act:
            return rng.choice(by_act["c"])
        return rng.choice(undotted(by_act["l"]))
    moves = undotted(by_act.get("f", [])) + by_act.get("b", []) + by_act.get("n", [])
    assert moves, message.describe_buttons()
    return rng.choice(moves)


def cards_held(user: SimUser) -> list[Card]:
    """The cards on the user's hand message's buttons."""
    message = hand_message(user)
    if message is None:
        return []
    return [
        Card.parse(arg)
        for b in message.all_buttons
        if (b.callback_data or "").startswith("h:")
        for act, arg in [act_of(b)]
        if act in "flc" and arg is not None
    ]


def names_card(text: str, name: str) -> bool:
    return re.search(rf"(?<![0-9]){re.escape(name)}", text) is not None


def group_text(group: SimGroup, since: int = 0) -> str:
    """Every text the group's messages showed (each edit too), but the layout's lines."""
    texts = [t for m in group.messages[since:] for t in [*(v.text for v in m.history), m.text]]
    return "\n".join(ln for t in texts for ln in t.splitlines() if not ln.startswith(PUBLIC_LINES))


def check_privacy(group: SimGroup, players: list[SimUser]) -> None:
    """No card now in a hand is named by the group's messages (the deal is the whole game,
    §3.1.5: a card on the pile has left its hand for good) — but the deal's result, which
    shows each loser's hand with what it pays (§3.5.2)."""
    shown = "\n".join(
        ln for ln in group_text(group).splitlines() if " платит " not in ln and " pays " not in ln
    )
    for user in players:
        for card in cards_held(user):
            name = card_name(card, "ru")
            assert not names_card(shown, name), f"{user.first_name}'s {name} in the group"


STOP = re.compile(r"^(?:Стоп|Закрыто королём): (.+?) — ", re.MULTILINE)
LEAD = re.compile(r"Ход: <b>(.+?)</b> · новая кучка")


def check_stops(group: SimGroup) -> int:
    """Each table text naming who stopped or closed the pile (§3.4.1, §3.4.2) has that player
    lead the new pile; how many such texts were seen."""
    seen = 0
    for m in group.messages:
        for html in [*(v.html for v in m.history), m.html]:
            stop = STOP.search(html)
            if stop is not None:
                lead = LEAD.search(html)
                assert lead is not None and lead.group(1) == stop.group(1), html
                seen += 1
    return seen


def engine_nets(database: TestDatabase) -> dict[int, int]:
    """The settlement replayed by the engine from the stored deal: user id → net."""
    ((game, seats, options),) = db_rows(
        database,
        "SELECT t.game, (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id), t.options "
        "FROM tables t",
    )
    ((table_id, seed, prev_dealer, first_seq),) = db_rows(
        database, "SELECT table_id, seed, prev_dealer, first_seq FROM matches"
    )
    state = new_game(game, seats, seed, json.loads(options), prev_dealer=prev_dealer)
    actions = db_rows(
        database,
        "SELECT seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
        table_id,
        first_seq,
    )
    for seat, action in actions:
        state.apply(seat, action)
    assert state.result is not None, "the stored actions do not end the deal"
    owners = dict(db_rows(database, "SELECT seat, user_id FROM seats WHERE table_id = ?", table_id))
    return {owners[seat]: net for seat, net in enumerate(state.result.net)}


@pytest.mark.parametrize(
    ("manner", "payment", "seats"),
    [
        ("king", "points", 3),
        ("king", "fixed", 4),
        ("out", "cards", 3),
        ("out", "points", 4),
    ],
)
async def test_lenturlu_deal_with_a_restart(
    fake_telegram: FakeTelegram, settings: Settings, manner: str, payment: str, seats: int
) -> None:
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES[:seats])]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103, 104][: seats - 1])
    rng = random.Random(f"{manner}-{seats}")
    presses = 0
    taps: dict[str, int] = {}
    start = fake.mark()

    async def press() -> None:
        nonlocal presses
        check_privacy(group, players)
        user = to_act(group, players)
        table = table_message(group)
        assert user is not None, f"nobody to act, but no result: {table and table.text}"
        message = hand_message(user)
        assert message is not None, user.first_name
        button = choose(message, rng)
        act = act_of(button)[0]
        taps[act] = taps.get(act, 0) + 1
        await press_and_wait(fake, user, message, button, players)
        presses += 1
        assert presses < PRESS_LIMIT, "the deal did not end"

    options = f"manner={manner} payment={payment}"
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, game="lenturlu", options=options)
        table = table_message(group)
        assert table is not None and "Лентюрлю" in table.text, table and table.text
        way = "покрывший королём" if manner == "king" else "первый без карт"
        assert way in table.text, table.text
        for _ in range(RESTART_AT):
            await press()
        await fake.settle(quiet=0.05)
        assert result_message(group) is None, "the deal ended before the restart"
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await fake.settle(quiet=0.1)
        while result_message(group) is None:
            await press()
        await fake.settle(quiet=0.05)
    calls = fake.count(since=start)
    in_group = fake.count(chat_id=group.id, since=start)
    result = result_message(group)
    assert result is not None
    print(result.text)  # noqa: T201
    assert result.text.startswith("🏁"), result.text
    deal = [m.text for m in group.messages if m.text.startswith("📋")]
    assert len(deal) == 1, deal  # one deal is the game (§3.1.5)
    reason = "покрыто королём" if "(покрыто королём)" in deal[0] else "без карт"
    assert manner == "king" or reason == "без карт", deal[0]  # Manner B: only going out wins
    shown = group_text(group)
    assert "Ваши карты" not in shown and "Your cards" not in shown
    check_privacy(group, players)
    rows = db_rows(settings.database, "SELECT SUM(balance), COUNT(*) FROM ledger")
    assert rows == [(0, seats)], rows
    # each seat's ledger balance is the engine's net, and the result's settlement line says it
    balances = dict(db_rows(settings.database, "SELECT user_id, balance FROM ledger"))
    assert balances == engine_nets(settings.database)
    settlement = next(ln for ln in result.text.splitlines() if ln.startswith("Расчёт"))
    for user in players:
        figure = re.search(rf"{user.first_name} ([+−]?\d+)", settlement)
        assert figure is not None, settlement
        assert balances[user.id] == int(figure.group(1).replace("−", "-")), settlement
    stops = check_stops(group)
    assert taps.get("f", 0) > 0 and taps.get("n", 0) + taps.get("b", 0) > 0, taps
    # a press edits the hands (a few at most) and the table; the lobby and the result are extra
    assert 20 < calls < CALL_LIMIT and calls < 80 + 10 * presses, (calls, presses)
    assert in_group < 20 + 2 * presses, (in_group, presses)
    print(  # noqa: T201
        f"Лентюрлю manner={manner} payment={payment}, {seats} players: {presses} presses "
        f"{dict(sorted(taps.items()))}; Bot API calls for the deal: {calls}, "
        f"group {in_group}, private {calls - in_group}; stops shown: {stops}"
    )


ASKED = {  # the accusative a middle rank is asked in (RULES.md §3.2.1: a run's middle)
    "2": "двойку",
    "3": "тройку",
    "4": "четвёрку",
    "5": "пятёрку",
    "6": "шестёрку",
    "7": "семёрку",
    "8": "восьмёрку",
    "9": "девятку",
    "10": "десятку",
    "J": "валета",
    "Q": "даму",
}


def middle_run(hand: list[Card], starts: list[Card]) -> tuple[Card, Card, list[Card]] | None:
    """A run's first and last card with a middle rank the hand holds twice or more, and that
    rank's cards; the run stops below a king, so that its pile stays on the table (§3.4.2)."""
    for first in starts:
        top = min(lp.reach(hand, first), 12)
        last = next(c for c in reversed(lp.order(hand)) if lp.value(c) == top)
        row = lp.open_rank(hand, [first, last]) if top > lp.value(first) else None
        if row:
            return first, last, row
    return None


def button_for(message: SentMessage, act: str, card: Card) -> Button:
    return next(b for b in message.all_buttons if act_of(b) == (act, str(card)))


async def test_lenturlu_run_with_a_middle_suit_to_choose(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    fake = fake_telegram
    players = [fake.add_user(101 + i, n, language_code="ru") for i, n in enumerate(NAMES[:3])]
    group = fake.add_group(-1001, "Пятница", admins=[101], members=[102, 103])
    rng = random.Random(3)
    async with watched(fake, running_bot(settings, seeds=fixed_seeds())):
        await open_table(fake, group, players, game="lenturlu", options="manner=king")
        for _ in range(100):
            user = to_act(group, players)
            assert user is not None
            message = hand_message(user)
            assert message is not None
            starts = [Card.parse(act_of(b)[1] or "") for b in undotted(hand_buttons(message)["f"])]
            found = middle_run(cards_held(user), starts)
            if found is not None:
                break
            await press_and_wait(fake, user, message, choose(message, rng), players)
        else:
            raise AssertionError("no hand with a middle rank to choose")
        first, last, row = found
        await press_and_wait(fake, user, message, button_for(message, "f", first), players)
        message = hand_message(user)
        assert message is not None and "Ряд от" in message.text, message and message.text
        await press_and_wait(fake, user, message, button_for(message, "l", last), players)
        message = hand_message(user)
        assert message is not None
        question = re.search(r"Ряд .+ … .+: (какую|какого) (\S+)\?", message.text)
        assert question is not None, message.text
        assert question.group(2) == ASKED[row[0].rank.value], message.text
        asked = [Card.parse(act_of(b)[1] or "") for b in hand_buttons(message)["c"]]
        assert asked == row, message.describe_buttons()
        # the default would be the row's first card: choose the last, so the choice shows
        chosen, other = row[-1], row[0]
        await press_and_wait(fake, user, message, button_for(message, "c", chosen), players)
        await fake.settle(quiet=0.05)
    played = db_rows(settings.database, "SELECT action FROM actions ORDER BY seq DESC LIMIT 1")
    run = played[0][0].split()
    assert run[0] == "run" and str(chosen) in run and str(other) not in run, run
    assert run[1] == str(first) and run[-1] == str(last), run
    table = table_message(group)
    assert table is not None
    pile = next(ln for ln in table.text.splitlines() if ln.startswith("Кучка:"))
    assert names_card(pile, card_name(chosen, "ru")), pile
    assert not names_card(pile, card_name(other, "ru")), pile
    assert other in cards_held(user) and chosen not in cards_held(user)
    print(f"Лентюрлю middle rank: {question.group(0)} → {' '.join(run)}")  # noqa: T201
