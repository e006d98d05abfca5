"""The bot's one refusal exception and its reasons (a :class:`BotRefusal`, or an engine rule).

It sits below every layer (routers, services, screens all use it), so no layer imports upward
for it. What a reason says, and which parameters it takes, is written in one place:
:mod:`bot.render.refusals`.
"""

from __future__ import annotations

from enum import StrEnum

from bot.keys import OutboxKey
from engine.errors import IllegalAction, Refusal

Param = str | int
"""A refusal's parameter: plain text (a name as the person wrote it, a card code) or a number."""


class BotRefusal(StrEnum):
    """Why the bot said no, before or beside the engine's rules: one member a reason. Its words,
    and so the parameters it takes (their fields), are in :data:`bot.render.refusals.WORDS`. No
    value is an engine rule's code: both are StrEnums, so equal values would be equal reasons."""

    # any press
    UNKNOWN_BUTTON = "unknown_button"
    STALE_BUTTON = "stale_button"
    STALE_HAND = "stale_hand"  # a hand's stale button: the current cards are shown again
    TABLE_CLOSED = "table_closed"
    NOT_YOUR_CARDS = "not_your_cards"
    NOT_IN_GROUP = "not_in_group"
    MEMBERSHIP_UNKNOWN = "membership_unknown"  # Telegram could not tell
    OPEN_PRIVATE_CHAT = "open_private_chat"  # a deep link opens it
    # the lobby
    TABLE_STARTING = "table_starting"
    GAME_STARTED = "game_started"
    PICK_A_GAME_FIRST = "pick_a_game_first"
    CREATOR_PICKS_GAME = "creator_picks_game"
    GAME_NOT_AVAILABLE = "game_not_available"
    ALREADY_SEATED = "already_seated"
    NOT_SEATED = "not_seated"
    NO_SEATS_LEFT = "no_seats_left"
    TOO_FEW_SEATED = "too_few_seated"
    NEED_A_HUMAN = "need_a_human"
    CREATOR_OR_ADMIN = "creator_or_admin"
    CREATOR_CHANGES_OPTIONS = "creator_changes_options"
    COMPUTERS_OFF = "computers_off"
    COMPUTER_GONE = "computer_gone"
    TABLE_ALREADY_HERE = "table_already_here"  # a reply to the table's message
    TOO_MANY_TABLES = "too_many_tables"
    NO_OPEN_TABLE = "no_open_table"
    # a typed option (/newgame, /play)
    UNKNOWN_OPTION = "unknown_option"
    OPTION_OUT_OF_RANGE = "option_out_of_range"
    OPTION_NOT_INT = "option_not_int"
    OPTION_NOT_BOOL = "option_not_bool"
    OPTION_NOT_ONE_OF = "option_not_one_of"
    OPTION_NOT_ALLOWED = "option_not_allowed"  # any other wrong option
    # play
    THEIR_TURN = "their_turn"  # another seat is to act: named
    COMPUTER_PLAYING = "computer_playing"  # the seat's owner must come back first
    NOT_PLAYING_HERE = "not_playing_here"
    CARDS_JUST_SENT = "cards_just_sent"
    SWITCH_TOO_SOON = "switch_too_soon"
    SEAT_KICKED = "seat_kicked"  # an admin handed the seat to the computer
    SEAT_LEFT = "seat_left"  # its owner left the group
    ALREADY_PLAYED = "already_played"
    BOUGHT_ALREADY = "bought_already"
    ALREADY_PASSED = "already_passed"
    ALREADY_EXCHANGED = "already_exchanged"
    ALREADY_KEPT = "already_kept"  # "no exchange" said already
    STOCK_HAS_ONLY = "stock_has_only"
    DISCARD_ONLY = "discard_only"
    MUSHKA_KEPT = "mushka_kept"  # the privileged card, named by its game
    PAMFIL_KEPT = "pamfil_kept"
    SHUTIKHA_KEPT = "shutikha_kept"
    SHUTIKHA_NOT_DISCARDED = "shutikha_not_discarded"
    MISTIGRI_KEPT = "mistigri_kept"
    RUN_NOT_NOW = "run_not_now"
    NO_RUN_NOW = "no_run_now"
    RUN_BY_ONE_RANK = "run_by_one_rank"
    RUN_GOES_ON_FROM = "run_goes_on_from"
    NO_PASS_NOW = "no_pass_now"
    NO_BUY_NOW = "no_buy_now"
    MUST_CAPTURE_WITH = "must_capture_with"
    # closing a table
    ONLY_PLAYERS_ASKED = "only_players_asked"
    ALREADY_AGREED = "already_agreed"
    CLOSE_ADMIN_ONLY = "close_admin_only"
    ASKED_LATELY = "asked_lately"
    # /kick
    KICK_ADMINS_ONLY = "kick_admins_only"
    KICK_NEEDS_REPLY = "kick_needs_reply"
    NOT_AT_TABLE = "not_at_table"
    NO_GAME_IN_PROGRESS = "no_game_in_progress"
    ALREADY_COMPUTER = "already_computer"
    # /settings
    SETTINGS_ADMINS_ONLY = "settings_admins_only"


Reason = BotRefusal | Refusal
"""A refusal's reason: the bot's own, or the engine's rule (said "Not allowed: …")."""


class Refused(Exception):
    """A press or command refused; nothing changed: ``Refused(BotRefusal.X, name=…)``.

    Where the refusal is shown: ``refresh`` asks to re-show a seat's hand (a stale press);
    ``alert`` shows a press's refusal as an alert, ``link`` (a deep-link payload) or ``url``
    opens with its button; ``reply_to_key`` names the keyed message a command's refusal replies
    to (else the command itself, in a group). :mod:`bot.routers.errors` shows it.

    Its ``params`` are plain text (a name as the person wrote it): the refusal is shown as a
    toast (:func:`~bot.render.refusals.refusal_text`) or in a message, escaped there
    (:func:`~bot.render.refusals.refusal_html`); it is never escaped where it is raised. A
    reason's words take exactly its parameters: one missing or unknown fails where it is
    shown, loudly (:class:`~bot.render.refusals.Misworded`)."""

    def __init__(
        self,
        reason: Reason,
        *,
        refresh: int | None = None,
        alert: bool = False,
        url: str | None = None,
        link: str | None = None,
        reply_to_key: OutboxKey | None = None,
        **params: Param,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.refresh = refresh
        self.alert = alert
        self.url = url
        self.link = link
        self.reply_to_key = reply_to_key
        self.params = params  # the reason's parameters, nothing else

    @classmethod
    def illegal(cls, error: IllegalAction, *, refresh: int | None = None) -> Refused:
        """The engine's refusal of an action, with the parameters its rule gave."""
        refused = cls(error.code, refresh=refresh)
        refused.params = dict(error.params)  # the rule's own (``seat``, ``action`` …): any name
        return refused

    @property
    def engine(self) -> Refusal | None:
        """The engine's rule, when the engine refused (the update's log line names it)."""
        return self.reason if isinstance(self.reason, Refusal) else None
