"""The inline invitation card (PRODUCT.md §5.6): what ``@<bot>`` offers in any chat."""

from __future__ import annotations

from dataclasses import dataclass

from bot.game_names import game_name
from bot.i18n import Translator
from bot.message_limits import TITLE, label
from bot.rendered import Button, Rendered, keyboard
from bot.storage.rows import SeatRow, TableRow
from engine.games import GAMES


@dataclass(frozen=True, slots=True)
class InviteCard:
    """One inline result: its title and description (plain text, a person's name as typed)
    and the message it sends (HTML)."""

    title: str
    description: str
    message: Rendered


def invitation(
    table: TableRow, seats: tuple[SeatRow, ...], chat_title: str, tr: Translator, join_link: str
) -> InviteCard:
    """An open lobby, as its card: the Join button is the deep link (§4.3), so whoever presses
    it, wherever the card was sent, goes through the same checks as the link itself."""
    game = game_name(table.game, tr.locale)
    most = max(GAMES[table.game].seat_counts)
    creator = next((s.name for s in seats if s.user_id == table.creator_id), "?")
    title = tr("🃏 {game} — seating ({n}/{most})", game=game, n=len(seats), most=most)
    description = label(tr("Created by: {name} · «{chat}»", name=creator, chat=chat_title), TITLE)
    text = tr.html(
        "🃏 {name} invites you to a table: {game}, «{chat}». Seats taken: {n} of {most}.",
        name=creator,
        game=game,
        chat=chat_title,
        n=len(seats),
        most=most,
    )
    join = Button(text=tr("✋ Join"), url=join_link)
    return InviteCard(title, description, Rendered(text, keyboard([[join]])))


def no_table(tr: Translator, add_link: str) -> InviteCard:
    """No open lobby to invite to: how to open one."""
    add = Button(text=tr("➕ Add to a group"), url=add_link)
    text = tr("Add me to a group and type /newgame there.")
    return InviteCard(tr("Open a table"), text, Rendered(text, keyboard([[add]])))
