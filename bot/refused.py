"""The bot's one refusal exception (a msgid + parameters, or an engine refusal code).

It sits below every layer (routers, services, screens all use it), so no layer imports upward
for it.
"""

from __future__ import annotations

from typing import Any

from engine.errors import Refusal


class Refused(Exception):
    """A press or command refused; nothing changed. ``refresh`` asks to re-show a hand.

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
        **params: Any,
    ) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.engine = engine
        self.refresh = refresh
        self.alert = alert
        self.url = url
        self.params = params
