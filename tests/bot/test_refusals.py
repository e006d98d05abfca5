"""Every refusal is a typed reason, worded in one place (bot/render/refusals.py): the mapping
covers both enums, each msgid is translated, and a reason raised without the parameters its
words take fails loudly — here, at every raise site, and where it is shown."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.i18n import Catalogues
from bot.refused import BotRefusal, Reason, Refused
from bot.render.refusals import (
    NOT_ALLOWED,
    REASONS,
    WORDS,
    Misworded,
    NotAllowed,
    needs,
    refusal_html,
    refusal_text,
    sentence,
)
from engine.errors import IllegalAction, Refusal

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
CATALOGUES = Catalogues.load(ROOT / "locales")
SHOWING = frozenset({"refresh", "alert", "url", "link", "reply_to_key"})  # Refused's own keywords


def msgids(reason: Reason) -> list[str]:
    """The msgids a reason is said with (a reason within «Not allowed: …» is two)."""
    if isinstance(reason, Refusal):
        return [NOT_ALLOWED, REASONS[reason]]
    words = WORDS[reason]
    return [NOT_ALLOWED, words.reason] if isinstance(words, NotAllowed) else [words]


def test_every_bot_refusal_and_engine_rule_has_words() -> None:
    assert set(WORDS) == set(BotRefusal)
    assert set(REASONS) == set(Refusal)


def test_no_bot_refusal_shares_an_engine_rules_code() -> None:
    """Both are StrEnums: a shared value would make them equal (one key in a set or a map)."""
    assert {r.value for r in BotRefusal}.isdisjoint(r.value for r in Refusal)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_refusal_is_worded_in_both_languages(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    reasons: list[Reason] = [*BotRefusal, *Refusal]
    missing = sorted({m for r in reasons for m in msgids(r) if not tr.has(m)})
    assert not missing, missing
    fields = {r: needs(r) for r in reasons}
    for reason in reasons:  # each shown with its parameters: no field left unfilled
        refused = Refused(reason)
        refused.params = dict.fromkeys(fields[reason], "Зоя")
        text = refusal_text(refused, tr)
        assert text and "{" not in text, (reason, text)


def test_a_refusal_raised_without_a_parameter_its_words_need_is_misworded() -> None:
    tr = CATALOGUES.tr("ru")
    assert needs(BotRefusal.NOT_AT_TABLE) == {"name"}
    with pytest.raises(Misworded, match=r"not_at_table.*missing \['name'\]"):
        refusal_text(Refused(BotRefusal.NOT_AT_TABLE), tr)
    with pytest.raises(Misworded, match=r"missing \['min'\]"):
        refusal_html(Refused(BotRefusal.TOO_FEW_SEATED, n=1), tr)
    with pytest.raises(Misworded, match=r"not taken \['nme'\]"):  # a misspelt one too
        refusal_text(Refused(BotRefusal.NOT_AT_TABLE, name="Вера", nme="Вера"), tr)
    with pytest.raises(Misworded, match=r"not_in_hand.*missing \['card'\]"):
        refusal_text(Refused(Refusal.NOT_IN_HAND), tr)
    # the engine's rules may give more than their words use (the record's detail)
    said = refusal_text(Refused.illegal(IllegalAction(Refusal.NOT_IN_HAND, card="QS", seat=1)), tr)
    assert said == tr(NOT_ALLOWED, reason=tr(REASONS[Refusal.NOT_IN_HAND], card="Д♠"))


def test_a_reason_within_not_allowed_has_no_sentence_of_its_own() -> None:
    assert sentence(BotRefusal.SEAT_LEFT) == WORDS[BotRefusal.SEAT_LEFT]
    with pytest.raises(TypeError):
        sentence(BotRefusal.OPTION_NOT_ALLOWED)
    en = CATALOGUES.tr("en")
    refused = Refused(BotRefusal.OPTION_NOT_ALLOWED)
    assert refusal_text(refused, en) == "Not allowed: that option value is not allowed."


def calls(name: str) -> Iterator[tuple[Path, ast.Call]]:
    """Every call of ``name`` (a plain name) in the bot's source."""
    for path in sorted(BOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == name:
                yield path, node


def bot_reason(node: ast.expr) -> BotRefusal | None:
    """``BotRefusal.X`` as written, else None."""
    if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Name):
        return None
    return BotRefusal[node.attr] if node.value.id == "BotRefusal" else None


def test_every_raise_site_names_a_reason_and_gives_exactly_its_parameters() -> None:
    checked, wrong = 0, []
    for name in ("Refused", "Deny"):
        for path, call in calls(name):
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            if path == BOT / "export.py":  # export's own refusal: an operator's line, no reason
                continue
            first = call.args[0] if call.args else None
            if isinstance(first, ast.Constant) or first is None:
                wrong.append(f"{where}: no reason")  # English text at a raise site
                continue
            reason = bot_reason(first)
            if reason is None:  # a reason passed on (a Deny's, an engine rule, BARRED[…])
                continue
            if name == "Refused":
                given = {k.arg for k in call.keywords if k.arg not in SHOWING}
            elif len(call.args) < 2:
                given = set()
            elif isinstance(call.args[1], ast.Dict):
                given = {str(k.value) for k in call.args[1].keys if isinstance(k, ast.Constant)}
            else:
                continue  # a dict built before: checked where it is shown
            checked += 1
            if given != needs(reason):
                wrong.append(f"{where}: {reason.name} takes {sorted(needs(reason))}, {given}")
    assert not wrong, wrong
    assert checked >= 100  # the scan sees the raise sites (103 when this was written)


def test_every_bot_refusal_is_raised_somewhere() -> None:
    named: set[str] = set()
    for path in BOT.rglob("*.py"):
        if path.name in ("refused.py", "refusals.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.expr) and (reason := bot_reason(node)) is not None:
                named.add(reason)
    assert sorted(set(BotRefusal) - named) == []


def test_a_russian_reason_within_not_allowed_says_so_once() -> None:
    # «Так нельзя: с Т♠ пасовать нельзя.» said it twice: the reason says why, in other words
    ru = CATALOGUES.tr("ru")
    twice = [
        code.value
        for code, reason in REASONS.items()
        if ru(NOT_ALLOWED, reason=ru(reason)).count("нельзя") > 1
    ]
    assert twice == []


CODE_LIKE = re.compile(r"§|\b[A-Za-z]+_[A-Za-z_]+\b|\b[A-Z]{2,}\b")
"""A token a player can't read: a clause number, a snake_case or CAPS code."""


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_no_refusal_says_a_code_or_a_clause_number(locale: str) -> None:
    tr = CATALOGUES.tr(locale)
    for reason in [*BotRefusal, *Refusal]:
        refused = Refused(reason)
        refused.params = dict.fromkeys(needs(reason), "Зоя")
        text = refusal_text(refused, tr)
        assert not CODE_LIKE.search(text), (reason, text)
        assert reason.value not in text, (reason, text)


@pytest.mark.parametrize(
    ("refusal", "params", "ru", "en"),
    [
        (Refusal.PRIVILEGED_MAY_NOT_PASS, {"card": "AS"}, "с Т♠ на руке не пасуют", "with A♠"),
        (Refusal.PRIVILEGED_NOT_DISCARDED, {"card": "QS"}, "Д♠ не сбрасывают", "Q♠ may not"),
        (Refusal.LEADER_MUST_LEAD, {}, "вы ходите первым — положите карту", "play a card"),
        (Refusal.NOT_A_RUN, {}, "карты подряд по старшинству", "consecutive ranks"),
        (Refusal.RUN_MUST_CONTINUE, {"top": "7D"}, "на единицу старше верхней", "one rank above"),
        (Refusal.INVALID_CAPTURE, {"card": "8C"}, "своего ранга или дающие в сумме", "adding up"),
    ],
    ids=lambda value: value.value if isinstance(value, Refusal) else "",
)
def test_an_engine_refusal_says_the_rule_in_a_players_words(
    refusal: Refusal, params: dict[str, str], ru: str, en: str
) -> None:
    """What the engine refuses, as the player reads it: the rule (the card by its name),
    not «that capture is not valid» or «the leader must lead»."""
    refused = Refused.illegal(IllegalAction(refusal, **params))
    said_ru = refusal_text(refused, CATALOGUES.tr("ru"))
    assert said_ru.startswith("Так нельзя: ") and ru in said_ru, said_ru
    assert said_ru.count("нельзя") == 1, said_ru
    assert en in refusal_text(refused, CATALOGUES.tr("en"))
