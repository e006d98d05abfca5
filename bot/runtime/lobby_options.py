"""A lobby's game options as /newgame types them and the lobby keeps them: RULES.md's
defaults under what was given, and what was wrong with a typed one (PRODUCT.md §16)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.message_limits import label
from bot.refused import BotRefusal, Refused
from engine.errors import InvalidOption
from engine.games import GAMES
from engine.options import option_fields, options_dict, parse_options

SHOWN: Final = 24  # the characters of a typed option's name or value a refusal repeats
TYPED: Final = frozenset({"option", "value"})  # what of an error's parameters a person typed


def option_refusal(game: str, error: InvalidOption, also: Sequence[str] = ()) -> Refused:
    """What was wrong with a typed option, naming it and what is allowed (PRODUCT.md §16;
    ``also``: the table's own options where they may be typed, as /newgame's ``teaching``)."""
    # plain text (the refusal's reader escapes it for HTML), a long typed value shown by its
    # start (what is allowed is the bot's own, shown whole)
    p = {k: label(str(v), SHOWN) if k in TYPED else str(v) for k, v in error.params.items()}
    option, value = p.get("option", ""), p.get("value", "")
    if error.code == "unknown_option":
        fields = option_fields(GAMES[game].options_type)
        names = ", ".join([*(f.name for f in fields), *also])
        return Refused(BotRefusal.UNKNOWN_OPTION, option=option, list=names)
    if error.code == "option_out_of_range":
        return Refused(
            BotRefusal.OPTION_OUT_OF_RANGE,
            option=option,
            value=value,
            low=p.get("low", ""),
            high=p.get("high", ""),
        )
    if error.code == "option_not_int":
        return Refused(BotRefusal.OPTION_NOT_INT, option=option, value=value)
    if error.code == "option_not_bool":
        return Refused(BotRefusal.OPTION_NOT_BOOL, option=option, value=value)
    if error.code == "option_not_allowed":
        return Refused(
            BotRefusal.OPTION_NOT_ONE_OF,
            option=option,
            value=value,
            allowed=", ".join(str(p.get("allowed", "")).split()),  # the engine's are spaced
        )
    return Refused(BotRefusal.OPTION_NOT_ALLOWED)


def default_options(
    game: str, given: Mapping[str, object] | None = None, also: Sequence[str] = ()
) -> dict[str, Any]:
    """The game's options, RULES.md's defaults under ``given`` (a refusal names ``also`` among
    the options that may be typed)."""
    try:
        typed = parse_options(GAMES[game].options_type, given or {})
    except InvalidOption as error:
        raise option_refusal(game, error, also) from error
    return dict(options_dict(typed))
