"""The engine's errors: bad notation, illegal actions, bad set-up (STYLE.md §5)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Refusal(StrEnum):
    """Why an action is illegal. Codes name the rule, never the symptom; never renamed."""

    # any game
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_HAND = "not_in_hand"
    WRONG_GAME = "wrong_game"  # an action of another game, or not an action at all
    NOT_NOW = "not_now"  # the action exists but not in this phase; prefer a specific code
    DUPLICATE_CARDS = "duplicate_cards"
    STOCK_TOO_SMALL = "stock_too_small"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    ALREADY_BOUGHT = "already_bought"
    # trick family (§1)
    PRIVILEGED_MAY_NOT_PASS = "privileged_may_not_pass"  # §1.3.3 a
    DEALER_MUST_DEFEND = "dealer_must_defend"  # §1.3.3 b
    PRIVILEGED_NOT_DISCARDED = "privileged_not_discarded"  # §1.3.4.1
    WRONG_CARD_COUNT = "wrong_card_count"  # play N lists N cards; discard k cards
    UP_DEALER_ONLY = "up_dealer_only"  # §1.3.4
    TURN_UP_GONE = "turn_up_gone"  # §1.2.4, §1.3.4
    UP_NEEDS_EXCHANGE = "up_needs_exchange"  # up with N ≥ 1
    ANNOUNCE_NOT_ALLOWED = "announce_not_allowed"  # §1.3.7
    RETRUMP_FIRST = "retrump_first"  # §1.2.4
    MUST_TRUMP = "must_trump"  # §1.4.3 b
    # Копилка (§2)
    LEAD_SUIT_REPEATED = "lead_suit_repeated"  # §2.4.2
    NO_BUY_HOLDING_SUIT = "no_buy_holding_suit"  # §2.4.3 a
    NO_PASS_HOLDING_SUIT = "no_pass_holding_suit"  # §2.4.3 a, hold_pass false
    OTHER_SUIT_FORBIDDEN = "other_suit_forbidden"  # §2.4.3 b
    LEADER_MUST_LEAD = "leader_must_lead"  # §2.4.1, §3.2.3
    # Лентюрлю (§3)
    NOT_A_RUN = "not_a_run"  # §3.2.1
    RUN_MUST_CONTINUE = "run_must_continue"  # §3.2.4: a follow starts at top + 1
    ACE_ONLY_LEADS = "ace_only_leads"  # §3.2.3
    MUST_BUY = "must_buy"  # §3.3.2 unable with stock
    MUST_PLAY = "must_play"  # §3.3.2 able, empty stock
    # Кончинка (§4)
    MUST_CAPTURE = "must_capture"  # §4.3.5
    INVALID_CAPTURE = "invalid_capture"  # §4.3.2
    JACK_MUST_SWEEP = "jack_must_sweep"  # §4.3.4
    NO_SWEEP = "no_sweep"  # §4.3.4 empty table or court_values


Params = Mapping[str, str | int]


class EngineError(ValueError):
    """Base of every error the engine raises on purpose."""


class InvalidNotation(EngineError):
    """A card or action text does not parse (RECORD.md §R2, §R4)."""

    def __init__(self, what: str, text: str) -> None:
        super().__init__(f"invalid {what}: {text!r}")
        self.what = what
        self.text = text


class IllegalAction(EngineError):
    """The rules forbid this action by this seat now; ``code`` says which rule."""

    def __init__(self, code: Refusal, **params: str | int) -> None:
        super().__init__(f"{code.value} {params}" if params else code.value)
        self.code = code
        self.params: dict[str, str | int] = dict(params)


class InvalidOption(EngineError):
    """Unknown game, bad seat count, or an option that is unknown or out of range."""

    def __init__(self, code: str, **params: str | int) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params: dict[str, str | int] = dict(params)


class InvalidRecord(EngineError):
    """A record cannot be replayed: malformed, or it disagrees with the rules (RECORD.md §R10)."""
