"""Collect every msgid the bot's source passes to a translator (for the catalogue tests)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "bot"
TRANSLATING = {"tr", "chat_tr", "user_tr", "utr", "ctr", "N_"}  # N_: translated where shown
# where a call's msgid stands among its arguments
MSGID_AT = {
    **dict.fromkeys(TRANSLATING, 0),
    "Note": 2,  # Note(chat_id, locale, msgid, …): the runtime's one-off messages
    "_chat_note": 1,  # self._chat_note(table, msgid, …): a group notice about a player
}


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        if func.attr in ("html", "n", "n_html"):  # tr.html(…), tr.n(…): the same catalogue
            return _name(func.value)
        return func.attr
    return ""


def source_msgids() -> set[str]:
    found: set[str] = set()
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            at = MSGID_AT.get(_name(node.func))
            msgid = node.args[at] if at is not None and len(node.args) > at else None
            if isinstance(msgid, ast.Constant) and isinstance(msgid.value, str):
                found.add(msgid.value)
    from bot.render.action_words import SAYINGS
    from bot.runtime.absent import HAND_OVER_NOTES
    from bot.runtime.closing import RATED, RATED_FOR, ClosedWhy

    found.update(msgid for saying in SAYINGS.values() for msgid in (saying.mine, saying.theirs))
    found.update(HAND_OVER_NOTES.values())
    found.update({RATED, RATED_FOR, *(why.value for why in ClosedWhy)})
    return found
