"""The lobby message: picker, seating, options, started (PRODUCT.md §4.2, §4.4, §5.1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.callbacks import Kind, LobbyAct, Press, PressCodec
from bot.computer_names import name_index
from bot.game_names import GAME_NAMES, game_name
from bot.i18n import Translator
from bot.markup import esc
from bot.message_limits import LABEL, label
from bot.render.cards import card_name
from bot.render.computers import LEVEL_BUTTONS, LEVEL_WORDS
from bot.render.durations import span, turn_time
from bot.render.games import game_ui
from bot.rendered import Button, ButtonStyle, Keyboard, Rendered, keyboard, next_in
from bot.runtime.outcome import Pane
from bot.slow import is_long, next_turn
from bot.storage.rows import SeatKind, SeatRow, TableRow, TableStatus
from engine.core import Line
from engine.events import Seats
from engine.games import GAMES
from engine.options import applies, option_fields
from engine.players import LEVELS


def option_label(game: str, name: str, tr: Translator) -> str:
    """An option's name on the lobby, in the words of the game's family."""
    ui = game_ui(game)
    return ui.option_label(name, tr) if ui is not None else name


def option_value(game: str, name: str, value: Any, tr: Translator) -> str:
    """An option's value in words: yes/no, an enum's word from the family, else the number."""
    if isinstance(value, bool):
        return tr("yes") if value else tr("no")
    ui = game_ui(game)
    words = ui.option_value if ui is not None else None
    return (words(name, value, tr) if words and isinstance(value, str) else None) or str(value)


def next_value(game: str, name: str, value: Any) -> str:
    """The value after ``value`` in the cycle a button steps through."""
    fields = {f.name: f for f in option_fields(GAMES[game].options_type)}
    meta = fields[name].metadata
    if meta["kind"] == "bool":
        return "false" if value else "true"
    if meta["kind"] == "enum":
        choices: tuple[str, ...] = meta["choices"]
        return next_in(choices, value)
    low, high = meta["range"]
    default = fields[name].default
    fallback = (low, default, high) if isinstance(default, int) else (low, high)
    ui = game_ui(game)
    steps = tuple(dict.fromkeys((ui.option_steps(name) if ui else None) or fallback))
    steps = tuple(s for s in steps if low <= s <= high) or (low,)
    return str(next_in(steps, value))


def option_text(game: str, name: str, value: Any, tr: Translator) -> str:
    """``target: 15`` in the words of the game's family (a line's part, a button's text)."""
    return f"{option_label(game, name, tr)}: {option_value(game, name, value, tr)}"


def options_line(table: TableRow, tr: Translator) -> str:
    """The table's options that matter (not Кончинка's stake when it pays per point)."""
    cls = GAMES[table.game].options_type
    parts = [
        option_text(table.game, k, v, tr)
        for k, v in table.options.items()
        if applies(cls, table.options, k)
    ]
    return tr("Options: {list}", list=" · ".join(parts))


def long_turns_line(turn_time: float, tr: Translator) -> str:
    """A long-turn table's line on its lobby: how long a turn is, and that it may take days."""
    return tr(
        "⏱ {time} a turn: the game may take days; I remind whoever is to move.",
        time=span(turn_time, tr),
    )


def teaching_line(tr: Translator) -> str:
    """What a teaching table is, on its lobby and its start."""
    return tr("🎓 Teaching game: unrated, with hints 💡")


def seated_name(seat: SeatRow, tr: Translator) -> str:
    """A seat on the seating line: a computer with its level ("🤖 Фёдор (лёгкий)", §5.1)."""
    if seat.kind is SeatKind.COMPUTER:
        return f"{esc(seat.name)} ({tr(LEVEL_WORDS.get(seat.level, seat.level))})"
    return esc(seat.name)


def lobby(
    table: TableRow,
    seats: Sequence[SeatRow],
    tr: Translator,
    codec: PressCodec,
    *,
    options_view: Pane = False,
    unreachable: Sequence[str] = (),
    link: str = "",
    confirm_cancel: bool = False,
    computers: bool = True,
    rules_link: str = "",
) -> Rendered:
    """``computers``: the chat allows computer players (its /settings); else no 🤖 button.
    ``rules_link``: the game's full rules in private (the «ℹ️ How to play» button)."""

    def button(
        text: str, act: LobbyAct, arg: str | None = None, style: ButtonStyle | None = None
    ) -> Button:
        press = Press(Kind.LOBBY, table.id, None, table.generation, act, arg)
        return Button(text=text, callback_data=codec.pack(press), style=style)

    cancel = button(tr("✖️ Cancel"), LobbyAct.ASK_CANCEL, style="danger")
    if table.status == TableStatus.CLOSED:  # §4.2: nobody started it in time; the keyboard goes
        return Rendered(tr("Table closed: nobody started the game."))
    creator = next((s.name for s in seats if s.user_id == table.creator_id), "?")
    if not table.game:
        text = tr("🃏 New table — {name} picks the game", name=esc(creator))
        if confirm_cancel:
            return Rendered(f"{text}\n{tr('Close this table?')}", cancel_keyboard(table, tr, codec))
        games = [button(game_name(g, tr.locale), LobbyAct.PICK, g) for g in GAME_NAMES]
        rows = [games[i : i + 4] for i in range(0, len(games), 4)]
        return Rendered(text, keyboard([*rows, [cancel]]))
    counts = GAMES[table.game].seat_counts
    lines = [
        tr("🃏 <b>{game}</b> — seating", game=game_name(table.game, tr.locale)),
        (
            tr(
                "Created by: {name} · seats {low}–{high}",
                name=esc(creator),
                low=min(counts),
                high=max(counts),
            )
            if min(counts) != max(counts)
            else tr("Created by: {name} · seats {n}", name=esc(creator), n=min(counts))
        ),
        options_line(table, tr),
        *([teaching_line(tr)] if table.teaching else []),
        *([long_turns_line(turn, tr)] if is_long(turn := table.turn_timeout_s or 0) else []),
        tr(
            "Seated ({n}/{most}): {names}",
            n=len(seats),
            most=max(counts),
            names=", ".join(seated_name(s, tr) for s in seats) or "—",
        ),
    ]
    if unreachable:
        lines.append(
            tr.html(
                "Can't reach in private: {names} → {link}", names=", ".join(unreachable), link=link
            )
        )
    if confirm_cancel:
        lines.append(tr("Close this table?"))
        return Rendered("\n".join(lines), cancel_keyboard(table, tr, codec))
    full = len(seats) >= max(counts)  # §4.2: Join is for a free seat, and so is a computer
    if options_view == "computers":
        lines.append(
            tr("No seats left: the table has {n}.", n=len(seats))
            if full
            else tr("Pick a level to seat a computer; ✖️ removes one.")
        )
        levels = (
            []
            if full
            else [button(tr(LEVEL_BUTTONS[lv]), LobbyAct.ADD_COMPUTER, lv) for lv in LEVELS]
        )
        removes = [
            button(f"✖️ {s.name}", LobbyAct.REMOVE_COMPUTER, str(index))
            for s in seats
            if s.kind is SeatKind.COMPUTER and (index := name_index(s.name)) is not None
        ]
        rows = [levels, *(removes[i : i + 2] for i in range(0, len(removes), 2))]
        return Rendered("\n".join(lines), keyboard([*rows, [button(tr("↩️ Back"), LobbyAct.BACK)]]))
    if options_view:
        rows = [
            [
                button(
                    option_text(table.game, k, v, tr),
                    LobbyAct.SET_OPTION,
                    f"{k}={next_value(table.game, k, v)}",
                )
            ]
            for k, v in table.options.items()
        ]
        teaching = tr("🎓 Teaching game: {value}", value=tr("yes") if table.teaching else tr("no"))
        rows.append([button(teaching, LobbyAct.TEACHING, "0" if table.teaching else "1")])
        turn = table.turn_timeout_s or 0
        if turn:  # a table opened before turn times were kept has none to step from
            rows.append([button("⏱ " + turn_time(turn, tr), LobbyAct.TURN, str(next_turn(turn)))])
        return Rendered("\n".join(lines), keyboard([*rows, [button(tr("↩️ Back"), LobbyAct.BACK)]]))
    join = [] if full else [button(tr("✋ Join"), LobbyAct.JOIN)]
    return Rendered(
        "\n".join(lines),
        keyboard(
            [
                [*join, button(tr("🚪 Leave"), LobbyAct.LEAVE, style="danger")],
                [
                    *([button(tr("🤖 Add computer"), LobbyAct.COMPUTERS)] if computers else []),
                    button(tr("⚙️ Options"), LobbyAct.OPTIONS),
                ],
                [invite_button(tr), *([rules_button(rules_link, tr)] if rules_link else [])],
                [button(tr("▶️ Start"), LobbyAct.START, style="success"), cancel],
            ]
        ),
    )


def rules_button(link: str, tr: Translator) -> Button:
    """«ℹ️ How to play»: the game's whole rules in a private chat (a deep link)."""
    return Button(text=tr("ℹ️ How to play"), url=link)


def invite_button(tr: Translator) -> Button:
    """Choose a chat and send this table's invitation card there (inline mode, §5.6)."""
    return Button(text=tr("📨 Invite"), switch_inline_query="")


def cancel_keyboard(table: TableRow, tr: Translator, codec: PressCodec) -> Keyboard | None:
    """Cancel asks once (§4.2, §4.9): yes closes the table, no keeps it."""

    def button(text: str, act: LobbyAct, style: ButtonStyle | None = None) -> Button:
        press = Press(Kind.LOBBY, table.id, None, table.generation, act)
        return Button(text=text, callback_data=codec.pack(press), style=style)

    yes = button(tr("✖️ Yes, close it"), LobbyAct.CANCEL, style="danger")
    return keyboard([[yes, button(tr("↩️ No"), LobbyAct.WAIT)]])


def cancel_question(table: TableRow, tr: Translator, codec: PressCodec) -> Rendered:
    """The reply to /cancel."""
    return Rendered(tr("Close this table?"), cancel_keyboard(table, tr, codec))


def unreachable_notice(
    table: TableRow, names: Sequence[str], tr: Translator, codec: PressCodec, link: str
) -> Rendered:
    """Start found seats it can't write to (§4.3): start without them, or wait."""

    def button(text: str, act: LobbyAct, style: ButtonStyle | None = None) -> Button:
        press = Press(Kind.LOBBY, table.id, None, table.generation, act)
        return Button(text=text, callback_data=codec.pack(press), style=style)

    listed = ", ".join(names)
    text = tr.html(
        "I can't write to {names} in private. Open a chat with me: {link}", names=listed, link=link
    )
    without = button(
        label(tr("▶️ Start anyway without {names}", names=listed), LABEL),
        LobbyAct.WITHOUT,
        style="success",
    )
    return Rendered(text, keyboard([[without, button(tr("⏳ Wait"), LobbyAct.WAIT)]]))


def started(table: TableRow, seats: Sequence[SeatRow], seats_line: Line, tr: Translator) -> str:
    """The lobby after Start: the draw, who deals first (§4.4)."""
    lines = [tr("🃏 {game} — the game has started", game=game_name(table.game, tr.locale))]
    if table.teaching:
        lines.append(teaching_line(tr))
    names = [s.name for s in seats]
    typed = Seats.of(seats_line)
    if typed.draw:
        shown = [
            " · ".join(
                f"{esc(names[i])} {card_name(card, tr.locale)}"
                for i, card in enumerate(row)
                if card is not None
            )
            for row in typed.draw
        ]
        lines.append(tr("Draw (lowest card deals): {draws}", draws=" → ".join(shown)))
    lines.append(tr("{name} deals first.", name=esc(names[typed.first_dealer])))
    return "\n".join(lines)


def closed(tr: Translator) -> str:
    return tr("This table is closed.")
