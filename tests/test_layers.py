"""The code's layers, kept: a module imports its own layer and the ones below, never above.

From the bottom (docs/bot.md, "Where things are"):

0. ``engine`` — the rules; never imports ``bot``.
1. the bot's base: small value types and pure helpers every layer may use (the clock, markup,
   callback data, message keys, refusals, settings, what a screen is — ``Rendered``).
2. ``storage``, ``coordination``, ``caches``: rows and statements, locks, what is remembered.
3. ``presses``: what a press on a hand message means, per family (its types and registry).
4. ``runtime``: commands, their handlers, the ``Outcome`` and its screens as data, standings.
5. ``render``: pure screens of the runtime's data.
6. ``sending``: the outbox (takes ``Rendered``, never a screen of ``render``).
7. ``presenter``, ``delivery``, ``answers``, ``drawing``, ``reviews``: an Outcome rendered and
   posted; a chart, a review computed off the event loop.
8. the front ends and the composition root: middlewares, routers, terminal, web, app …

Every import counts, ``TYPE_CHECKING`` ones too (a design dependency all the same), and every
module of ``bot`` must have a layer: a new one fails here until it is placed in :data:`LAYERS`.
Beside it, no two classes of ``bot`` and ``engine`` share a name: a name says what it is.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS: dict[str, int] = {
    "engine": 0,
    # 1: the bot's base
    "bot": 1,
    "bot.callbacks": 1,
    "bot.clock": 1,
    "bot.computer_names": 1,
    "bot.config": 1,
    "bot.game_names": 1,
    "bot.i18n": 1,
    "bot.keys": 1,
    "bot.logsafe": 1,
    "bot.lru": 1,
    "bot.markup": 1,
    "bot.message_limits": 1,
    "bot.numbers": 1,
    "bot.refused": 1,
    "bot.rendered": 1,
    "bot.slow": 1,
    "bot.tasks": 1,
    # 2: what is stored, locked and remembered
    "bot.caches": 2,
    "bot.coordination": 2,
    "bot.rating": 2,
    "bot.storage": 2,
    # 3: what a hand press means
    "bot.presses": 3,
    # 4: commands and handlers, the Outcome as data
    "bot.records": 4,
    "bot.runtime": 4,
    # 5: pure screens
    "bot.render": 5,
    # 6: the outbox
    "bot.sending": 6,
    # 7: an Outcome rendered and posted
    "bot.answers": 7,
    "bot.book": 7,
    "bot.bus": 7,
    "bot.delivery": 7,
    "bot.drawing": 7,
    "bot.presenter": 7,
    "bot.reviews": 7,
    "bot.scheduling": 7,
    # 8: front ends, the composition root, command-line tools
    "bot.__main__": 8,
    "bot.app": 8,
    "bot.check": 8,
    "bot.export": 8,
    "bot.middlewares": 8,
    "bot.ratings_cli": 8,
    "bot.routers": 8,
    "bot.startup": 8,
    "bot.terminal": 8,
    "bot.web": 8,
    "bot.workers": 8,
}
"""Each package or module's layer; a module takes its longest listed prefix. ``bot`` itself
is only the package's ``__init__``: a module directly in ``bot/`` must be listed by name."""

APART: frozenset[tuple[str, str]] = frozenset({("bot.sending", "bot.render")})
"""Pairs that never import one another's modules though the layers would allow it: the outbox
takes :class:`bot.rendered.Rendered` (layer 1), never a screen of ``render``."""


@dataclass(frozen=True, slots=True)
class Upward:
    """One import of a higher layer: where it is written, and the two modules."""

    path: str
    line: int
    importer: str
    imported: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.importer} → {self.imported}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str, layers: Mapping[str, int]) -> int | None:
    """The layer of ``module`` (its longest listed prefix; None: unplaced)."""
    if module in layers:
        return layers[module]
    parts = module.split(".")
    for n in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in layers and (n > 1 or prefix != "bot"):
            return layers[prefix]
    return None


def imports(tree: ast.Module, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Every module ``tree`` imports (``from a import b`` yields ``a.b``: a submodule or a
    name of ``a``, told apart by the caller), with its line; relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                yield node.lineno, f"{target}.{alias.name}"


def sources(root: Path) -> dict[str, Path]:
    return {
        module_name(p, root): p
        for package in ("bot", "engine")
        for p in sorted((root / package).rglob("*.py"))
    }


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def upward_imports(
    root: Path, layers: Mapping[str, int], apart: frozenset[tuple[str, str]] = APART
) -> tuple[list[str], list[Upward]]:
    """The modules with no layer, and every import of a higher layer than its importer's (or
    of a package ``apart`` from the importer's)."""
    modules = sources(root)
    unplaced = sorted(m for m in modules if layer_of(m, layers) is None)
    found = []
    for module, path in modules.items():
        own = layer_of(module, layers)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, name in imports(tree, module, path.name == "__init__.py"):
            # ``from bot.x import Y``: ``bot.x.Y`` if it is a module, else ``bot.x``
            imported = name if name in modules else name.rpartition(".")[0]
            if imported not in modules:
                continue  # a third-party module
            theirs = layer_of(imported, layers)
            banned = any(_within(module, a) and _within(imported, b) for a, b in apart)
            if banned or (own is not None and theirs is not None and theirs > own):
                rel = path.relative_to(root).as_posix()
                found.append(Upward(rel, line, module, imported))
    return unplaced, list(dict.fromkeys(found))  # ``from a import B, C``: one line, once


def test_every_module_has_a_layer_and_imports_none_above_it() -> None:
    unplaced, upward = upward_imports(ROOT, LAYERS)
    assert not unplaced, "modules with no layer (place them in LAYERS):\n" + "\n".join(unplaced)
    assert not upward, "imports of a higher layer:\n" + "\n".join(map(str, upward))


def test_the_checker_catches_a_planted_upward_import(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "__init__.py").write_text("")
    (tmp_path / "bot" / "runtime").mkdir(parents=True)
    (tmp_path / "bot" / "render").mkdir()
    for init in ("bot", "bot/runtime", "bot/render"):  # bot/sending below
        (tmp_path / init / "__init__.py").write_text("")
    (tmp_path / "bot" / "render" / "screen.py").write_text(
        "from bot.runtime.outcome import Outcome\nimport engine\n"
    )
    (tmp_path / "bot" / "runtime" / "outcome.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from ..render.screen import draw\n\nclass Outcome: ...\n"
    )
    (tmp_path / "bot" / "sending").mkdir()
    (tmp_path / "bot" / "sending" / "__init__.py").write_text("")
    (tmp_path / "bot" / "sending" / "outbox.py").write_text("import bot.render.screen\n")
    (tmp_path / "bot" / "stray.py").write_text("")
    layers = {"engine": 0, "bot": 1, "bot.runtime": 4, "bot.render": 5, "bot.sending": 6}

    unplaced, upward = upward_imports(tmp_path, layers)

    assert unplaced == ["bot.stray"]
    assert sorted(str(u) for u in upward) == [
        "bot/runtime/outcome.py:4 bot.runtime.outcome → bot.render.screen",
        "bot/sending/outbox.py:1 bot.sending.outbox → bot.render.screen",
    ]


def classes(root: Path) -> dict[str, list[str]]:
    """Each class name defined in ``bot`` and ``engine``, with where (``path:line``)."""
    found: dict[str, list[str]] = {}
    for path in sources(root).values():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where = f"{path.relative_to(root).as_posix()}:{node.lineno}"
                found.setdefault(node.name, []).append(where)
    return found


def test_no_two_classes_share_a_name() -> None:
    twice = {name: places for name, places in classes(ROOT).items() if len(places) > 1}
    assert not twice, "one name, several classes (name each by what it is):\n" + "\n".join(
        f"{name}: {', '.join(places)}" for name, places in sorted(twice.items())
    )
