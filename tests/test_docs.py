"""The project's texts: the rule book kept in the repository, a README read in five minutes, a
CHANGELOG of releases, and docs that name features rather than issue numbers.

**The rule book.** ``docs/rules.md`` and ``docs/record.md`` are byte-exact copies of the shared
``RULES.md`` and ``RECORD.md`` (in ``../shared/`` beside the repository, where they are
corrected; never edit the copies). ``docs/rule-book.sha256`` records each copy's SHA-256 in
``sha256sum``'s format. Every run checks each copy against its recorded checksum, so an edit of
a copy in the repository fails even on a clone with no ``../shared/``; where the shared texts
are present (``../shared/``, or the folder ``BOT_TEST_SHARED_TEXTS`` names, which must then
exist) each copy must also equal its original byte for byte. Without them the check says so in
the run's warnings summary (:class:`RuleBookNotCompared`): it never passes as if it had compared.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CHECKSUMS = DOCS / "rule-book.sha256"
SHARED_ENV = "BOT_TEST_SHARED_TEXTS"


@dataclass(frozen=True, slots=True)
class RuleBookText:
    """One text of the rule book: its copy in the repository and its shared original's name."""

    copy: str
    original: str


RULE_BOOK = (
    RuleBookText("docs/rules.md", "RULES.md"),
    RuleBookText("docs/record.md", "RECORD.md"),
)


class RuleBookNotCompared(UserWarning):
    """The shared texts were not found: the copies were checked against their checksums only."""


_CHECKSUM_LINE = re.compile(r"^([0-9a-f]{64})  (\S+)$")


def parse_checksums(text: str) -> dict[str, str]:
    """``sha256sum``'s output (``<hex>  <path>`` a line) as path → hex digest; a path listed
    twice or a line of any other shape is refused."""
    found: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = _CHECKSUM_LINE.match(line)
        if match is None:
            raise ValueError(f"line {number} is not '<sha256>  <path>': {line!r}")
        digest, path = match.groups()
        if path in found:
            raise ValueError(f"{path} is listed twice")
        found[path] = digest
    return found


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def shared_texts() -> Path | None:
    """The folder of the shared texts: ``$BOT_TEST_SHARED_TEXTS`` (which must exist), else
    ``../shared/`` beside the repository when it is there."""
    named = os.environ.get(SHARED_ENV)
    if named:
        folder = Path(named)
        assert folder.is_dir(), f"{SHARED_ENV}={named} is no folder"
        return folder
    beside = ROOT.parent / "shared"
    return beside if beside.is_dir() else None


def test_the_checksum_format_is_sha256sums() -> None:
    digest = "0" * 63 + "a"
    assert parse_checksums(f"{digest}  docs/rules.md\n") == {"docs/rules.md": digest}
    for bad in (f"{digest} docs/rules.md", f"{digest[:-1]}  docs/rules.md", "docs/rules.md"):
        with pytest.raises(ValueError):
            parse_checksums(bad)
    with pytest.raises(ValueError, match="twice"):
        parse_checksums(f"{digest}  a.md\n{digest}  a.md\n")


def test_the_checksum_file_lists_each_text_of_the_rule_book_once() -> None:
    recorded = parse_checksums(CHECKSUMS.read_text(encoding="utf-8"))
    assert sorted(recorded) == sorted(text.copy for text in RULE_BOOK)


@pytest.mark.parametrize("text", RULE_BOOK, ids=[t.original for t in RULE_BOOK])
def test_the_rule_book_in_docs_is_the_shared_text_byte_for_byte(text: RuleBookText) -> None:
    copy = (ROOT / text.copy).read_bytes()
    recorded = parse_checksums(CHECKSUMS.read_text(encoding="utf-8"))[text.copy]
    assert sha256(copy) == recorded, (
        f"{text.copy} is not the text {CHECKSUMS.name} records: the rule book is corrected in "
        f"../shared/{text.original}, then copied here (docs/testing.md, «The rule book»)"
    )
    folder = shared_texts()
    if folder is None:
        warnings.warn(
            RuleBookNotCompared(
                f"{text.copy} checked against {CHECKSUMS.name} only: no ../shared/ here "
                f"(set {SHARED_ENV} to compare it with {text.original})"
            ),
            stacklevel=1,
        )
        return
    original = (folder / text.original).read_bytes()
    assert copy == original, (
        f"{text.copy} differs from {folder / text.original}: copy it again and run "
        f"`sha256sum docs/rules.md docs/record.md > docs/rule-book.sha256`"
    )


def repository_files() -> list[Path]:
    """Every file of the working tree but git's, caches and the bot's data."""
    skipped = {".git", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "data"}
    found: list[Path] = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [
            s for s in subfolders if s not in skipped and not s.endswith((".egg-info", "venv"))
        ]
        found.extend(Path(folder) / name for name in files)
    return found


def test_the_rule_book_has_one_copy_in_the_repository() -> None:
    """The tests, the tools and the docs read docs/; no second copy can drift from it."""
    texts = {(ROOT / t.copy).read_bytes(): t.copy for t in RULE_BOOK}
    sizes = {len(data) for data in texts}
    elsewhere = [
        f"{path.relative_to(ROOT)} (a copy of {texts[path.read_bytes()]})"
        for path in repository_files()
        if path.stat().st_size in sizes
        and str(path.relative_to(ROOT)) not in texts.values()
        and path.read_bytes() in texts
    ]
    assert not elsewhere, elsewhere


# --- issue tags --------------------------------------------------------------------------------

# An issue tag: a hash and digits standing alone. Not a Markdown anchor (a hash and digits after
# "](" or a file name, or followed by "-"), an HTML character reference ("&" before the hash) or
# a word's part (a letter before the hash). The samples below write the hash as "№" (``tag``),
# so that this file names no issue either.
_ISSUE_TAG = re.compile(r"(?<![\w&/#])(?<!\]\()#\d+\b(?!-)")


def issue_tags(text: str) -> list[str]:
    """The issue tags of a text, each as its line (its number, a colon, the line)."""
    return [
        f"{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), 1)
        if _ISSUE_TAG.search(line)
    ]


def project_texts() -> list[Path]:
    """README, CHANGELOG and docs/ — the rule book aside: it is the shared text, as it is."""
    copies = {ROOT / t.copy for t in RULE_BOOK}
    docs = sorted(p for p in DOCS.glob("*.md") if p not in copies)
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *docs]


def tag(sample: str) -> str:
    """A sample text with its hash written as "№"."""
    return sample.replace("№", "#")


def test_issue_tags_are_told_from_anchors_and_references() -> None:
    tagged = [tag(t) for t in ("group (№32)", "issue №35", "№47: paced", "(№18, №33)", "a №1 rule")]
    untagged = [
        tag("[Scoring](№2-scoring)"),
        tag("[rules](docs/rules.md№1-mushka)"),
        tag("&№38; and &№x26;"),
        tag("C№7"),
        "### 1.4 Play",
        "`##`",
        "see §1.4.3",
    ]
    assert [bool(issue_tags(t)) for t in tagged] == [True] * len(tagged)
    assert [t for t in untagged if issue_tags(t)] == []


def test_the_docs_name_features_not_issue_numbers() -> None:
    found = {
        str(path.relative_to(ROOT)): tags
        for path in project_texts()
        if (tags := issue_tags(path.read_text(encoding="utf-8")))
    }
    assert not found, found


# The code names features too: comments, docstrings, a figure's label — this file included.
CODE = ("bot", "engine", "tests", "bench")

# A colour in a string ("#212529", "#fff") is no tag.
_COLOUR = re.compile(r"""(["'])#[0-9A-Fa-f]{3,8}\1""")


def code_tags(text: str) -> list[str]:
    """The issue tags of a Python file's text, each as its line; a colour in a string is none."""
    return issue_tags(_COLOUR.sub(r"\1\1", text))


def code_files() -> dict[str, Path]:
    """The Python files of the code, by their path from the root."""
    return {
        str(path.relative_to(ROOT)): path
        for path in sorted(repository_files())
        if path.suffix == ".py" and path.relative_to(ROOT).parts[0] in CODE
    }


def test_code_tags_are_told_from_colours_and_other_repositories() -> None:
    tagged = [
        tag(t) for t in ('add_figure(request, "№32 one deal", n)', "# №35", '"""Issue №37"""')
    ]
    untagged = ['INK: Final = _rgb("#212529")', "'#495057',", tag("redis-py№2624"), tag("C№7")]
    assert [bool(code_tags(t)) for t in tagged] == [True] * len(tagged)
    assert [t for t in untagged if code_tags(t)] == []


def test_the_code_names_features_not_issue_numbers() -> None:
    found = {
        name: tags
        for name, path in code_files().items()
        if (tags := code_tags(path.read_text(encoding="utf-8")))
    }
    assert not found, found


# --- links ----------------------------------------------------------------------------------------

_LINK = re.compile(r"\]\(([^)\s]+)\)")


def relative_links(text: str) -> list[str]:
    """The targets of a text's Markdown links that name a file of the repository."""
    return [
        target.split("#", 1)[0]
        for target in _LINK.findall(text)
        if not target.startswith(("http://", "https://", "mailto:", "#"))
    ]


def test_every_link_between_the_texts_names_a_file_that_is_there() -> None:
    broken = [
        f"{path.relative_to(ROOT)} → {target}"
        for path in project_texts()
        for target in relative_links(path.read_text(encoding="utf-8"))
        if not (path.parent / target).exists()
    ]
    assert not broken, broken


# --- the README and the CHANGELOG -------------------------------------------------------------

WORDS_IN_FIVE_MINUTES = 1_250  # about 250 words a minute of technical reading


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)


def test_the_readme_reads_in_five_minutes_and_points_to_the_rest() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.split()) <= WORDS_IN_FIVE_MINUTES
    # its first two blocks are the two commands, and CI runs the test command as written
    start, tests = code_blocks(readme)[:2]
    assert "python -m bot" in start
    install, run = tests.split("#", 1)[0].split("&&")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert install.split("install", 1)[1].strip() in ci  # -e '.[dev]'
    assert run.strip().replace("python ", "python3 ") in ci  # python -m pytest -n auto
    headings = re.findall(r"^#{2,3} (.+)$", readme, re.M)
    assert headings == [
        "Play without Telegram",
        "Put it in a group",
        "Settings",
        "Where to read on",
    ]
    links = set(relative_links(readme))
    wanted = {"docs/rules.md", "docs/record.md", "docs/performance.md", "docs/computers.md"}
    assert wanted <= links
    assert {f"docs/{p.name}" for p in DOCS.glob("*.md")} <= links  # every doc is reached from it


CHANGE_KINDS = ("Added", "Changed", "Fixed", "Removed", "Security")
LONGEST_CHANGE = 240  # characters of one line: a sentence or two a player or operator reads


def test_the_changelog_is_releases_of_one_line_changes() -> None:
    lines = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# Changelog"
    releases = [line for line in lines if line.startswith("## ")]
    assert releases and releases[0] == "## Unreleased"
    release = ""
    kinds: dict[str, list[str]] = {}
    changes = 0
    for number, line in enumerate(lines, 1):
        if line.startswith("## "):
            release = line[3:]
        elif line.startswith("### "):
            kind = line[4:]
            assert kind in CHANGE_KINDS, f"line {number}: {kind!r}"
            assert kind not in kinds.get(release, []), f"line {number}: {kind} twice in {release}"
            kinds.setdefault(release, []).append(kind)
        elif line.startswith("- "):
            assert release and kinds.get(release), f"line {number}: a change outside a section"
            assert len(line) <= LONGEST_CHANGE, f"line {number} is {len(line)} characters long"
            changes += 1
        else:
            # between the sections only blank lines and, before the first release, its intro
            assert not line.strip() or not release, f"line {number} continues a change: {line!r}"
    assert changes >= 60  # every user-visible change kept, one line each


def test_every_bench_script_runs_as_its_docstring_says() -> None:
    """A script documented as ``python bench/<name>.py`` puts the repository root on the path
    itself, so the command works from a fresh shell (no install, no PYTHONPATH)."""
    for path in sorted((ROOT / "bench").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if f"python bench/{path.name}" in text:
            assert "sys.path.insert(0, str(ROOT))" in text, path.name
