"""Every refusal's words, in one place (PRODUCT.md §16): the bot's reasons (:class:`BotRefusal`)
and the engine's rules (:class:`~engine.errors.Refusal`), each a msgid marked with ``N_()``.

A reason takes the parameters its msgid names (``{name}``, ``{n}`` …), no other: a refusal
raised without one, or with one its words do not take, is :class:`Misworded` where it is shown
— loudly, never a toast with ``{name}`` in it. The engine's rules may give more than their words
use (``seat``, ``action``: the record's detail), never less.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from string import Formatter
from typing import Final

from bot.i18n import N_, Translator
from bot.markup import Html, esc
from bot.message_limits import toast
from bot.refused import BotRefusal, Param, Reason, Refused
from bot.render.cards import SUIT_SYMBOL, card_name
from engine.cards import Suit
from engine.errors import Refusal

NOT_ALLOWED: Final = N_("Not allowed: {reason}.")


@dataclass(frozen=True, slots=True)
class NotAllowed:
    """Words said as a reason, within «Not allowed: {reason}.» (as the engine's rules are)."""

    reason: str


WORDS: Final[Mapping[BotRefusal, str | NotAllowed]] = {
    BotRefusal.UNKNOWN_BUTTON: N_("Unknown button."),
    BotRefusal.STALE_BUTTON: N_("That button is out of date."),
    BotRefusal.STALE_HAND: N_("That button is out of date — here are your current cards."),
    BotRefusal.TABLE_CLOSED: N_("This table is closed."),
    BotRefusal.NOT_YOUR_CARDS: N_("These aren't your cards."),
    BotRefusal.NOT_IN_GROUP: N_("This table is in «{chat}», which you're not a member of."),
    BotRefusal.MEMBERSHIP_UNKNOWN: N_(
        "I couldn't check that you're in «{chat}» — try again in a moment."
    ),
    BotRefusal.OPEN_PRIVATE_CHAT: N_("First open a chat with me — button below."),
    BotRefusal.TABLE_STARTING: N_("The table is starting — one moment."),
    BotRefusal.GAME_STARTED: N_("The game has started. Wait for the next one."),
    BotRefusal.PICK_A_GAME_FIRST: N_("Pick a game first."),
    BotRefusal.CREATOR_PICKS_GAME: N_("{name} picks the game."),
    BotRefusal.GAME_NOT_AVAILABLE: N_("This game is not available yet."),
    BotRefusal.ALREADY_SEATED: N_("You're already seated."),
    BotRefusal.NOT_SEATED: N_("You're not seated."),
    BotRefusal.NO_SEATS_LEFT: N_("No seats left: the table has {n}."),
    BotRefusal.TOO_FEW_SEATED: N_("At least {min} needed, now {n}."),
    BotRefusal.NEED_A_HUMAN: N_("At least one human must be seated."),
    BotRefusal.CREATOR_OR_ADMIN: N_("Only {creator} or an admin can do that."),
    BotRefusal.CREATOR_CHANGES_OPTIONS: N_("Only {creator} can change the options."),
    BotRefusal.COMPUTERS_OFF: N_("Computer players are off in this chat."),
    BotRefusal.COMPUTER_GONE: N_("This computer is no longer at the table."),
    BotRefusal.TABLE_ALREADY_HERE: N_("There's already a table here: ↑"),
    BotRefusal.TOO_MANY_TABLES: N_(
        "You have opened several tables here in the last few minutes: the next one a little later."
    ),
    BotRefusal.NO_OPEN_TABLE: N_("There is no open table here."),
    BotRefusal.UNKNOWN_OPTION: N_("Unknown option {option}. Options: {list}."),
    BotRefusal.OPTION_OUT_OF_RANGE: N_("{option}={value} is not allowed: from {low} to {high}."),
    BotRefusal.OPTION_NOT_INT: N_("{option}={value} is not allowed: a whole number is needed."),
    BotRefusal.OPTION_NOT_BOOL: N_("{option}={value} is not allowed: true or false."),
    BotRefusal.OPTION_NOT_ONE_OF: N_("{option}={value} is not allowed: one of {allowed}."),
    BotRefusal.OPTION_NOT_ALLOWED: NotAllowed(N_("that option value is not allowed")),
    BotRefusal.THEIR_TURN: N_("It's {name}'s turn."),
    BotRefusal.COMPUTER_PLAYING: N_("The computer is playing for you — press 🙋 I'm back first."),
    BotRefusal.NOT_PLAYING_HERE: N_("You're not playing at this table."),
    BotRefusal.CARDS_JUST_SENT: N_("Your cards were just sent — again in {seconds} s."),
    BotRefusal.SWITCH_TOO_SOON: N_("You can switch again in {seconds} s."),
    BotRefusal.SEAT_KICKED: N_(
        "An admin of «{chat}» handed your seat to the computer for the rest of this table."
    ),
    BotRefusal.SEAT_LEFT: N_("You're no longer in «{chat}»: the computer plays your seat there."),
    BotRefusal.ALREADY_PLAYED: N_("Already played: {card}."),
    BotRefusal.BOUGHT_ALREADY: N_("Already done: you bought {n}."),
    BotRefusal.ALREADY_PASSED: N_("Already done: you passed."),
    BotRefusal.ALREADY_EXCHANGED: N_("Already done: your cards are exchanged."),
    BotRefusal.ALREADY_KEPT: N_("Already done: no exchange."),
    BotRefusal.STOCK_HAS_ONLY: N_("No more: the stock has {n}."),
    BotRefusal.DISCARD_ONLY: N_("No more: discard {n}."),
    BotRefusal.MUSHKA_KEPT: N_("The mushka ({card}) can't be exchanged."),
    BotRefusal.PAMFIL_KEPT: N_("The pamfil ({card}) can't be exchanged."),
    BotRefusal.SHUTIKHA_KEPT: N_("The shutikha ({card}) can't be exchanged."),
    BotRefusal.SHUTIKHA_NOT_DISCARDED: N_("The shutikha ({card}) can't be discarded."),
    BotRefusal.MISTIGRI_KEPT: N_("The mistigri ({card}) can't be exchanged."),
    BotRefusal.RUN_NOT_NOW: N_("That run can't be played now."),
    BotRefusal.NO_RUN_NOW: N_("You can't play a run now."),
    BotRefusal.RUN_BY_ONE_RANK: N_("A run goes up by one rank at a time, from its first card."),
    BotRefusal.RUN_GOES_ON_FROM: N_("A run here goes on from {card}: one rank higher."),
    BotRefusal.NO_PASS_NOW: N_("You can't pass now."),
    BotRefusal.NO_BUY_NOW: N_("You can't buy now."),
    BotRefusal.MUST_CAPTURE_WITH: N_("{card} captures nothing, and a move that can capture must."),
    BotRefusal.ONLY_PLAYERS_ASKED: N_("Only the people playing at this table are asked."),
    BotRefusal.ALREADY_AGREED: N_("You have agreed already."),
    BotRefusal.CLOSE_ADMIN_ONLY: N_("The game is in play: only an admin can close it at once."),
    BotRefusal.ASKED_LATELY: N_("The players were asked a moment ago: ask again in {minutes} min."),
    BotRefusal.KICK_ADMINS_ONLY: N_("Only admins can remove a player from the table."),
    BotRefusal.KICK_NEEDS_REPLY: N_("Use this command as a reply to the player's message."),
    BotRefusal.NOT_AT_TABLE: N_("{name} isn't at this table."),
    BotRefusal.NO_GAME_IN_PROGRESS: N_("There's no game in progress now."),
    BotRefusal.ALREADY_COMPUTER: N_("{name}: the computer already plays this seat."),
    BotRefusal.SETTINGS_ADMINS_ONLY: N_("Only the group's admins change its settings."),
}
"""The bot's reasons in words: a sentence, or a reason said as «Not allowed: …»."""

REASONS: Final[Mapping[Refusal, str]] = {
    Refusal.GAME_OVER: N_("the game is over"),
    Refusal.NOT_YOUR_TURN: N_("it is not your turn"),
    Refusal.NOT_IN_HAND: N_("you don't hold {card}"),
    Refusal.WRONG_GAME: N_("that move is not part of this game"),
    Refusal.NOT_NOW: N_("that move is not possible now"),
    Refusal.DUPLICATE_CARDS: N_("a card is named twice"),
    Refusal.STOCK_TOO_SMALL: N_("the stock has only {stock}"),
    Refusal.MUST_FOLLOW_SUIT: N_("you must follow {suit}"),
    Refusal.ALREADY_BOUGHT: N_("you have already bought"),
    Refusal.PRIVILEGED_MAY_NOT_PASS: N_("with {card} you may not pass"),
    Refusal.DEALER_MUST_DEFEND: N_("the dealer must play against a single player"),
    Refusal.PRIVILEGED_NOT_DISCARDED: N_("{card} may not be discarded"),
    Refusal.WRONG_CARD_COUNT: N_("wrong number of cards"),
    Refusal.UP_DEALER_ONLY: N_("only the dealer may take the turn-up"),
    Refusal.TURN_UP_GONE: N_("the turn-up is no longer on the table"),
    Refusal.UP_NEEDS_EXCHANGE: N_("to take the turn-up, exchange at least one card"),
    Refusal.ANNOUNCE_NOT_ALLOWED: N_("you may not announce now"),
    Refusal.RETRUMP_FIRST: N_("the dealer must choose the trump first"),
    Refusal.MUST_TRUMP: N_("you must trump with {suit}"),
    Refusal.LEAD_SUIT_REPEATED: N_("{suit} was just led; lead another suit"),
    Refusal.NO_BUY_HOLDING_SUIT: N_("you hold {suit}, so you may not buy"),
    Refusal.NO_PASS_HOLDING_SUIT: N_("you hold {suit}, so you may not pass"),
    Refusal.OTHER_SUIT_FORBIDDEN: N_("you may not play another suit"),
    Refusal.LEADER_MUST_LEAD: N_("you lead, so play a card"),
    Refusal.NOT_A_RUN: N_("a run is cards of consecutive ranks, going up"),
    Refusal.RUN_MUST_CONTINUE: N_("a run goes on from one rank above the pile's top card"),
    Refusal.ACE_ONLY_LEADS: N_("an ace may only lead"),
    Refusal.MUST_BUY: N_("you cannot play, so you must buy"),
    Refusal.MUST_PLAY: N_("you can play, so you must play"),
    Refusal.MUST_CAPTURE: N_("you must capture when you can"),
    Refusal.INVALID_CAPTURE: N_("a card takes table cards of its rank, or adding up to its value"),
    Refusal.JACK_MUST_SWEEP: N_("the jack takes the whole table"),
    Refusal.NO_SWEEP: N_("there is nothing to sweep"),
}
"""The engine's rules in words, each said as «Not allowed: …»."""


class Misworded(TypeError):
    """A refusal raised without a parameter its words need, or with one they do not take."""


def needs(reason: Reason) -> frozenset[str]:
    """The parameters a reason's words take: their msgid's fields."""
    if isinstance(reason, Refusal):
        msgid = REASONS[reason]
    else:
        words = WORDS[reason]
        msgid = words.reason if isinstance(words, NotAllowed) else words
    return frozenset(name for _, name, _, _ in Formatter().parse(msgid) if name)


def sentence(reason: BotRefusal) -> str:
    """A bot reason's msgid, for a note that says it as a message of its own (with the
    refusal's parameters); a reason said within «Not allowed: …» has none."""
    words = WORDS[reason]
    if isinstance(words, NotAllowed):
        raise TypeError(f"{reason!r} is said within {NOT_ALLOWED!r}")
    return words


def refusal_text(refused: Refused, tr: Translator) -> str:
    """The refusal as plain text (a toast): its parameters as they are, within a toast's
    length."""
    return toast(_text(refused, tr))


def refusal_html(refused: Refused, tr: Translator) -> Html:
    """The refusal as a message's HTML: its parameters (plain, a person's name) escaped."""
    return esc(_text(refused, tr))


def _checked(refused: Refused) -> None:
    given, needed = frozenset(refused.params), needs(refused.reason)
    missing = needed - given
    unknown = frozenset() if isinstance(refused.reason, Refusal) else given - needed
    if missing or unknown:
        raise Misworded(
            f"{refused.reason!r}: missing {sorted(missing)}, not taken {sorted(unknown)}"
        )


def _params(params: Mapping[str, Param], locale: str) -> dict[str, Param]:
    out = dict(params)
    suit = out.get("suit")
    if isinstance(suit, str) and suit in Suit.__members__.values():
        out["suit"] = SUIT_SYMBOL[Suit(suit)]
    card = out.get("card")
    if isinstance(card, str):
        with contextlib.suppress(ValueError):
            out["card"] = card_name(card, locale)
    return out


def _text(refused: Refused, tr: Translator) -> str:
    _checked(refused)
    params = _params(refused.params, tr.locale)
    reason = refused.reason
    if isinstance(reason, Refusal):
        return tr(NOT_ALLOWED, reason=tr(REASONS[reason], **params))
    words = WORDS[reason]
    if isinstance(words, NotAllowed):
        return tr(NOT_ALLOWED, reason=tr(words.reason, **params))
    return tr(words, **params)
