"""The bot's one refusal exception (a msgid + parameters, or an engine refusal code).

It sits below every layer (routers, services, screens all use it), so no layer imports upward
for it.
"""

from __future__ import annotations

from typing import Any

from engine.errors import Refusal


class Refused(Exception):
    """A press or command refused; nothing changed.

    Where the refusal is shown: ``refresh`` asks to re-show a seat's hand (a stale press);
    ``alert`` shows a press's refusal as an alert, ``link`` (a deep-link payload) or ``url``
    opens with its button; ``reply_to_key`` names the keyed message a command's refusal replies
    to (else the command itself, in a group). :mod:`bot.routers.errors` shows it.

    Its ``params`` are plain text (a name as the person wrote it): the refusal is shown as a
    toast (:func:`~bot.render.refusals.refusal_text`) or in a message, escaped there
    (:func:`~bot.render.refusals.refusal_html`); it is never escaped where it is raised."""

    def __init__(
        self,
        msgid: str,
        *,
        engine: Refusal | None = None,
        refresh: int | None = None,
        alert: bool = False,
        url: str | None = None,
        link: str | None = None,
        reply_to_key: str | None = None,
        **params: Any,
    ) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.engine = engine
        self.refresh = refresh
        self.alert = alert
        self.url = url
        self.link = link
        self.reply_to_key = reply_to_key
        self.params = params  # the msgid's parameters, nothing else
