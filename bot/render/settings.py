"""The /settings messages (PRODUCT.md §15): a group's (its admins') and a person's own. Every
button sets the value after the one shown (its data carries that value, so a press means what
the presser saw); kind ``g`` in a group, ``s`` in private (§7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.callbacks import Kind, Press, PressCodec, SettingsAct
from bot.game_names import GAME_NAMES, game_name
from bot.i18n import LOCALES, N_, Translator
from bot.markup import esc
from bot.render.durations import turn_time
from bot.render.lobby import next_value, option_text
from bot.rendered import Button, Rendered, keyboard, next_in
from bot.runtime.outcome import GroupSettingsScreen, MySettingsScreen
from bot.slow import QUIET_FROM, QUIET_TO, ZONES, zone
from bot.storage.settings import (
    TURN_TIMEOUTS,
    ChatHands,
    ChatSettings,
    Pings,
    Tips,
    UserHands,
    UserSettings,
)

LANGUAGE_NAMES: Final = {"ru": "Русский", "en": "English"}  # each in its own language

# the acts of the settings buttons (bot.callbacks.ACTS)
LANGUAGE, TIMEOUT, COMPUTERS, GAME, OPTION, BACK, PINGS, WORDS, HANDS, TIPS = "ntcgvbpwhi"
QUIET, ZONE = "qz"
PINGS_WORDS: Final[Mapping[Pings, str]] = {Pings.ON: "on", Pings.REMINDERS: "only reminders"}
# where hands go (§19), as the group's row and a person's own row name each value
CHAT_HANDS_WORDS: Final[Mapping[ChatHands, str]] = {
    ChatHands.AUTO: "auto",
    ChatHands.GROUP: "in the group (only you see them)",
    ChatHands.PRIVATE: "in private",
}
TIPS_WORDS: Final[Mapping[Tips, str]] = {
    Tips.AUTO: N_("in my first games"),
    Tips.ON: "on",
    Tips.OFF: "off",
}
USER_HANDS_WORDS: Final[Mapping[UserHands, str]] = {
    UserHands.GROUP: "as the group says",
    UserHands.PRIVATE: "always in private",
}


def next_language(locale: str) -> str:
    return next_in(LOCALES, locale)


def next_timeout(seconds: float) -> int:
    """The turn time after ``seconds`` in the cycle 30 → 60 → 90 → 180 → 300 s → 1 → 6 → 12
    → 24 h → 30 s."""
    return next((t for t in TURN_TIMEOUTS if t > seconds), TURN_TIMEOUTS[0])


def _yes_no(value: bool, tr: Translator) -> str:
    return tr("yes") if value else tr("no")


def group_settings(
    title: str,
    locale: str,
    settings: ChatSettings,
    timeout: float,
    tr: Translator,
    codec: PressCodec,
    *,
    game: str = "",
    options: Mapping[str, Any] | None = None,
    hands: bool = False,
) -> Rendered:
    """The group's settings; ``game``: that game's default options (``options``) instead;
    ``hands``: with the row of where hands go (§19; the operator's ``BOT_HANDS_IN_GROUP``)."""

    def button(text: str, act: str, arg: str | None = None) -> Button:
        press = Press(Kind.GROUP, 0, None, 0, act, arg)
        return Button(text=text, callback_data=codec.pack(press))

    head = tr("⚙️ Settings of «{chat}»", chat=esc(title))
    if game:
        shown = dict(options or {})
        lines = [
            head,
            tr("Default options for {game}:", game=game_name(game, tr.locale)),
            *(option_text(game, k, v, tr) for k, v in shown.items()),
            tr("They apply to tables opened from now on."),
        ]
        rows = [
            [button(option_text(game, k, v, tr), OPTION, f"{game}.{k}={next_value(game, k, v)}")]
            for k, v in shown.items()
        ]
        return Rendered("\n".join(lines), keyboard([*rows, [button(tr("↩️ Back"), BACK)]]))
    language = tr("Language: {value}", value=LANGUAGE_NAMES.get(locale, locale))
    turn = turn_time(timeout, tr)
    computers = tr("Computer players: {value}", value=_yes_no(settings.computers, tr))
    where = tr("Hands: {value}", value=tr(CHAT_HANDS_WORDS[settings.hands]))
    lines = [head, language, turn, computers]
    if hands:
        lines.append(where)
        lines.append(
            tr("Hands «auto»: in the group when the bot is an admin here, in private otherwise.")
        )
    lines.append(tr("Default options: pick a game below."))
    lines.append(tr("Changes apply to tables opened from now on; the language at once."))
    games = [button(game_name(g, tr.locale), GAME, g) for g in GAME_NAMES]
    rows = [
        [button("🌐 " + language, LANGUAGE, next_language(locale))],
        [button("⏱ " + turn, TIMEOUT, str(next_timeout(timeout)))],
        [button("🤖 " + computers, COMPUTERS, "0" if settings.computers else "1")],
        [button("🃏 " + where, HANDS, next_in(tuple(ChatHands), settings.hands))] if hands else [],
        *(games[i : i + 4] for i in range(0, len(games), 4)),
    ]
    return Rendered("\n".join(lines), keyboard(rows))


def user_settings(
    locale: str, settings: UserSettings, tr: Translator, codec: PressCodec, hands: bool = False
) -> Rendered:
    """A person's own settings, in private (``hands``: with the row of where his go, §19)."""

    def button(text: str, act: str, arg: str) -> Button:
        press = Press(Kind.PRIVATE, 0, None, 0, act, arg)
        return Button(text=text, callback_data=codec.pack(press))

    language = tr("Language: {value}", value=LANGUAGE_NAMES.get(locale, locale))
    pings = tr("Turn pings: {value}", value=tr(PINGS_WORDS[settings.pings]))
    words = tr("Cards in words: {value}", value=tr("on") if settings.words else tr("off"))
    mine = tr("My hands: {value}", value=tr(USER_HANDS_WORDS[settings.hands]))
    tips = tr("Tips: {value}", value=tr(TIPS_WORDS[settings.tips]))
    quiet = tr("Quiet hours: {value}", value=quiet_words(settings, tr))
    where = tr("Time zone: {zone}", zone=zone(settings.zone, locale).key)
    shown = tr("hidden") if settings.hidden else tr("shown")
    name = tr("Name on boards of all chats: {value}", value=shown)
    lines = [tr("⚙️ Your settings"), language, pings, words, tips]
    if hands:
        lines.append(mine)
    lines.append(quiet)
    if settings.quiet:
        lines.append(where)
    lines.append(name)
    lines.append(
        tr("Only reminders: no message at each turn, only when a third of the time is left.")
    )
    lines.append(tr("Cards in words: your hand message also names the cards in full."))
    lines.append(
        tr(
            "Quiet hours: at a table with long turns, no pings from 23:00 to 08:00 your time;"
            " a reminder due then comes in the morning."
        )
    )
    lines.append(
        tr(
            "Tips: a line on your hand says the rule of the choice you face. In my first"
            " games: until you have finished two games of it."
        )
    )
    lines.append(
        tr(
            "Name hidden: on /daily top and the season's board of all groups you are"
            " «Player 1», «Player 2»…; your groups' own boards show your name."
        )
    )
    if hands:
        lines.append(
            tr(
                "Always in private: your cards come here even where a group"
                " shows them in the group."
            )
        )
    next_zone = str(ZONES.index(next_in(ZONES, settings.zone)))
    rows = [
        [button("🌐 " + language, LANGUAGE, next_language(locale))],
        [button("🔔 " + pings, PINGS, next_in(tuple(Pings), settings.pings))],
        [button("🗣 " + words, WORDS, "0" if settings.words else "1")],
        [button("📖 " + tips, TIPS, next_in(tuple(Tips), settings.tips))],
        [button("🃏 " + mine, HANDS, next_in(tuple(UserHands), settings.hands))] if hands else [],
        [button("🌙 " + quiet, QUIET, "0" if settings.quiet else "1")],
        [button("🕰 " + where, ZONE, next_zone)] if settings.quiet else [],
        [button("🕶 " + name, SettingsAct.HIDDEN, "0" if settings.hidden else "1")],
    ]
    return Rendered("\n".join(lines), keyboard(rows))


def quiet_words(settings: UserSettings, tr: Translator) -> str:
    """``23:00–08:00`` (his quiet hours are on) or ``off``."""
    return f"{QUIET_FROM:02d}:00–{QUIET_TO:02d}:00" if settings.quiet else tr("off")


def pane(
    screen: GroupSettingsScreen | MySettingsScreen, tr: Translator, codec: PressCodec
) -> Rendered:
    """A settings pane the runtime drew as data, in its reader's language (``tr``)."""
    if isinstance(screen, MySettingsScreen):
        return user_settings(screen.locale, screen.settings, tr, codec, hands=screen.hands)
    return group_settings(
        screen.title,
        screen.locale,
        screen.settings,
        screen.timeout,
        tr,
        codec,
        game=screen.game,
        options=screen.options,
        hands=screen.hands,
    )
