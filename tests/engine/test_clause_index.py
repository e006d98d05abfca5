"""Every numbered clause of RULES.md has a test named after it, or a written reason for none.

RULES.md's preamble: "Every clause is numbered; tests are named after clauses". A test is *named
after* clause ``1.5.9`` when its function name starts with ``test_1_5_9_`` followed by anything
but a digit (``test_1_3_10_...`` is named after §1.3.10, ``test_1_3_10_2_...`` after §1.3.10.2).
A clause that needs no test of its own is listed, with its reason, in a test module's docstring
under the heading ``Clauses without a test of their own:`` (one ``§N.N.N reason`` line each).

The rules are read from ``docs/rules.md``, the repository's copy of the shared RULES.md
(``tests/test_docs.py`` keeps the two equal).

A second index — every clause cited ``§N.N.N`` somewhere in ``engine/`` — is prepared in
:func:`clauses_not_cited_in_engine` but not asserted yet (the engine is being restructured).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
RULES = ROOT / "docs" / "rules.md"
ENGINE_DIRS: tuple[Path, ...] = (ROOT / "engine",)
"""Where :func:`clauses_not_cited_in_engine` looks for ``§N.N.N`` citations."""

EXEMPT_HEADING = "Clauses without a test of their own:"

# "**§0.6 Dealing.**" at the start of a line (the common conventions of §0)
_BOLD = re.compile(r"^\*\*§(\d+\.\d+)\b", re.M)
# "1.5.9. ", "1.3.10.1. " — at the start of a line, or after a sentence inside a paragraph
# ("… of the game (§0.3). 0.5.2. The card …"); a citation "§1.5.9." is not a clause
_NUMBERED = re.compile(r"(?:^|(?<=[.)] ))(\d+\.\d+\.\d+(?:\.\d+)*)\. ", re.M)
_EXEMPT_LINE = re.compile(r"^§(\d+(?:\.\d+)+)\s+(\S.*)$")


def clause_numbers(text: str) -> list[str]:
    """The clause numbers of RULES.md in document order, each once."""
    found = [(m.start(), m.group(1)) for m in _BOLD.finditer(text)]
    found += [(m.start(), m.group(1)) for m in _NUMBERED.finditer(text)]
    return list(dict.fromkeys(number for _, number in sorted(found)))


@cache
def rules_text() -> str:
    return RULES.read_text(encoding="utf-8")


@cache
def clauses() -> tuple[str, ...]:
    return tuple(clause_numbers(rules_text()))


def python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def defined_test_names() -> set[str]:
    """Every ``test_*`` function or method defined under ``tests/``."""
    names: set[str] = set()
    for path in python_files():
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                names.add(node.name)
    return names


def is_named_after(name: str, clause: str) -> bool:
    """``test_1_5_9_two_players`` is named after 1.5.9; ``test_1_5_9_1_x`` is not."""
    prefix = "test_" + clause.replace(".", "_") + "_"
    return name.startswith(prefix) and not name[len(prefix) :][:1].isdigit()


def exempt_entries(docstring: str) -> list[tuple[str, str]]:
    """The ``(clause, reason)`` lines under the heading in one module docstring."""
    lines = docstring.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == EXEMPT_HEADING]
    entries: list[tuple[str, str]] = []
    for start in starts:
        for line in lines[start + 1 :]:
            stripped = line.strip()
            match = _EXEMPT_LINE.match(stripped)
            if match:
                entries.append((match.group(1), match.group(2)))
            elif not stripped and entries:
                break  # a blank line after the entries ends the list
            elif stripped and not line.startswith((" ", "\t")):
                break  # ordinary text again; indented lines continue the previous reason
    return entries


@cache
def exempt_clauses() -> dict[str, list[tuple[Path, str]]]:
    """Clause → where it is listed as needing no test of its own, and why."""
    found: dict[str, list[tuple[Path, str]]] = {}
    for path in python_files():
        docstring = ast.get_docstring(parsed(path))
        if docstring and EXEMPT_HEADING in docstring:
            for clause, reason in exempt_entries(docstring):
                found.setdefault(clause, []).append((path.relative_to(ROOT), reason))
    return found


def clauses_without_test(numbers: Iterable[str], names: Iterable[str]) -> list[str]:
    names = list(names)
    exempt = exempt_clauses()
    return [c for c in numbers if c not in exempt and not any(is_named_after(n, c) for n in names)]


def clauses_not_cited_in_engine() -> list[str]:
    """Clauses with no ``§N.N.N`` citation in the engine's code."""
    texts = [p.read_text(encoding="utf-8") for d in ENGINE_DIRS for p in sorted(d.rglob("*.py"))]
    return [
        c
        for c in clauses()
        if not any(re.search("§" + re.escape(c) + r"(?!\.?\d)", t) for t in texts)
    ]


# --- the checks ----------------------------------------------------------------------------


def test_clause_extraction_finds_every_kind_of_clause() -> None:
    numbers = clauses()
    # the bold §0 conventions, mid-paragraph clauses, 3- and 4-part numbers
    for expected in ("0.1", "0.11", "0.5.1", "0.5.2", "0.5.3", "1.3.10.3", "4.4.5"):
        assert expected in numbers
    # the clauses renumbered: the partia's winner became §2.6.7, the next partia §2.6.8
    assert numbers.index("2.6.6") + 1 == numbers.index("2.6.7") == numbers.index("2.6.8") - 1
    assert len(numbers) == len(set(numbers))
    assert numbers.index("0.11") < numbers.index("1.1.1") < numbers.index("4.4.5")
    assert "1.4" not in numbers and "3.4" not in numbers  # headings are not clauses
    sample = "1.2.3. **A.** See §4.5.6. Then (x). 7.8.9. Next.\n**§0.4 Random.**"
    assert clause_numbers(sample) == ["1.2.3", "7.8.9", "0.4"]


def test_naming_rule() -> None:
    assert is_named_after("test_1_5_9_two_players_reach_zero", "1.5.9")
    assert is_named_after("test_3_4_2_a_covering_king", "3.4.2")
    assert is_named_after("test_1_3_10_2_same_suit", "1.3.10.2")
    assert not is_named_after("test_1_3_10_2_same_suit", "1.3.10")
    assert not is_named_after("test_3_4_2a_covering_king", "3.4.2")
    assert not is_named_after("test_1_5_9", "1.5.9")
    assert not is_named_after("test_11_5_9_x", "1.5.9")


def test_exempt_lists_parse() -> None:
    doc = (
        "Title.\n\nClauses without a test of their own:\n\n"
        "§1.4.9 advice for the computer player,\n  continued here.\n"
        "§0.5.4 the table assigns seats.\n\nOther text.\n§9.9 not listed\n"
    )
    assert exempt_entries(doc) == [
        ("1.4.9", "advice for the computer player,"),
        ("0.5.4", "the table assigns seats."),
    ]


def test_missing_clauses_are_reported_in_order() -> None:
    names = ["test_1_1_1_players", "test_2_2_x"]
    assert clauses_without_test(["1.1.1", "2.2", "9.9.9", "2.2.1"], names) == ["9.9.9", "2.2.1"]


def test_exempt_lists_name_real_clauses_with_reasons() -> None:
    numbers = set(clauses())
    names = defined_test_names()
    for clause, places in exempt_clauses().items():
        assert clause in numbers, f"§{clause} listed in {places[0][0]} is not a RULES.md clause"
        assert len(places) == 1, f"§{clause} is listed twice: {places}"
        assert len(places[0][1]) > 10, f"§{clause} needs a reason"
        named = sorted(n for n in names if is_named_after(n, clause))
        assert not named, f"§{clause} is listed as untested but has {named}"


def test_every_clause_has_a_named_test_or_a_reason() -> None:
    missing = clauses_without_test(clauses(), defined_test_names())
    assert not missing, (
        f"{len(missing)} RULES.md clauses have no test named test_<clause>_… and are not "
        f"listed under {EXEMPT_HEADING!r}: " + ", ".join("§" + c for c in missing)
    )


def test_every_clause_is_cited_where_its_rule_lives_in_the_engine() -> None:
    """A rule is found from its number by grep: every clause is cited in ``engine/`` code."""
    uncited = clauses_not_cited_in_engine()
    assert set(uncited) <= set(clauses())
    assert not uncited, "RULES.md clauses cited nowhere in engine/: " + ", ".join(
        "§" + c for c in uncited
    )
