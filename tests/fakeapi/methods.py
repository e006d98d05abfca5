"""The Bot API methods of the fake: Telegram's checks, results and error descriptions."""

from __future__ import annotations

import asyncio
import io
import json
import math
import time
from typing import TYPE_CHECKING, Any

from PIL import Image

from tests.fakeapi.html import HtmlError, parse_html, strip_text, utf16_len
from tests.fakeapi.model import (
    ApiError,
    CallbackAnswer,
    ChatState,
    MessageVersion,
    SentMessage,
    Upload,
    member_object,
)

if TYPE_CHECKING:
    from tests.fakeapi.users import SimUser

__all__ = ["CONFLICT", "NOT_MODIFIED", "QUERY_TOO_OLD", "ApiMethods", "scope_key"]

JsonDict = dict[str, Any]

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
MAX_TEXT = 4096
MAX_TOAST = 200
_COUNTED = frozenset({"sendmessage", "editmessagetext", "editmessagereplymarkup"})
_ACTION_KEYS = frozenset(
    {
        "url",
        "callback_data",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
        "disabled",
    }
)


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


def _photo_size(photo: Upload) -> tuple[int, int]:
    """A photo's width and height, as Telegram checks them (sendPhoto's documented limits)."""
    if len(photo.data) > 10 * 1024 * 1024:
        raise _bad("PHOTO_SAVE_FILE_INVALID")
    try:
        with Image.open(io.BytesIO(photo.data)) as image:
            width, height = image.size
    except (OSError, ValueError):
        raise _bad("IMAGE_PROCESS_FAILED") from None
    if width + height > 10_000 or max(width, height) > 20 * min(width, height):
        raise _bad("PHOTO_INVALID_DIMENSIONS")
    return width, height


class ApiMethods:
    """The method handlers (``_m_<method>``) and the checks they share; FakeTelegram's base."""

    bot_id: int
    bot_name: str
    bot_username: str
    privacy_mode: bool
    users: dict[int, SimUser]
    chats: dict[int, ChatState]
    commands: dict[tuple[str, str], list[JsonDict]]
    callback_answers: dict[str, CallbackAnswer]
    inline_answers: dict[str, JsonDict]
    _queue: list[JsonDict]
    _delivered_upto: int
    _rate: tuple[int, float] | None
    _rate_groups_only: bool
    _sent_times: dict[int, list[float]]
    _pending_callbacks: dict[str, asyncio.Future[CallbackAnswer]]
    query_life_s: float | None
    _pressed_at: dict[str, float]
    _pending_inline: dict[str, asyncio.Future[list[JsonDict]]]

    @property
    def bot_user(self) -> JsonDict:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def store_message(
        self,
        chat: ChatState,
        version: MessageVersion,
        *,
        sender_id: int,
        from_bot: bool,
        **fields: Any,
    ) -> SentMessage:
        message = SentMessage(
            message_id=chat.next_id,
            chat_id=chat.id,
            sender_id=sender_id,
            date=int(time.time()),
            version=version,
            from_bot=from_bot,
            history=[version],
            **fields,
        )
        chat.next_id += 1
        chat.messages[message.message_id] = message
        return message

    def message_dict(self, message: SentMessage, *, nested: bool = False) -> JsonDict:
        """The Bot API ``Message`` object for a stored message."""
        chat = self.chats[message.chat_id]
        sender = self.bot_user if message.from_bot else self.users[message.sender_id].as_user()
        out: JsonDict = {
            "message_id": message.message_id,
            "from": sender,
            "chat": chat.as_chat(),
            "date": message.date,
        }
        if message.thread_id is not None:
            out["message_thread_id"] = message.thread_id
            out["is_topic_message"] = True
        if message.reply_to is not None and not nested:
            target = chat.messages.get(message.reply_to)
            if target is not None and not target.deleted:
                out["reply_to_message"] = self.message_dict(target, nested=True)
        if message.via_bot:
            out["via_bot"] = self.bot_user
        if message.edit_date is not None:
            out["edit_date"] = message.edit_date
        if message.text:
            out["text"] = message.text
        if message.entities:
            out["entities"] = [dict(e) for e in message.entities]
        if message.link_preview_options:
            out["link_preview_options"] = message.link_preview_options
        if message.reply_markup and "inline_keyboard" in message.reply_markup:
            out["reply_markup"] = message.reply_markup
        out.update(message.extra)
        return out

    # ------------------------------------------------------------------ checks

    def _thread(self, chat: ChatState, params: JsonDict, reply_to: int | None) -> int | None:
        """Where a send goes in a forum, as Telegram does it: the ``message_thread_id`` asked
        for (an unknown topic is refused), else the topic of the message it replies to, else
        the General topic (None). Outside a forum a thread id means nothing."""
        if not chat.is_forum:
            return None
        thread = params.get("message_thread_id")
        if thread is not None:
            if thread not in chat.topics:
                raise _bad("message thread not found")
            return int(thread)
        target = chat.messages.get(reply_to) if reply_to is not None else None
        return target.thread_id if target is not None else None

    def _target_chat(self, params: JsonDict, *, write: bool = True) -> ChatState:
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise _bad("chat_id is empty")
        chat: ChatState | None
        if isinstance(raw, str) and raw.startswith("@"):
            chat = next((c for c in self.chats.values() if c.username == raw[1:]), None)
        elif isinstance(raw, int):
            chat = self.chats.get(raw)
        else:
            chat = None
        if chat is None:
            user = self.users.get(raw) if isinstance(raw, int) else None
            if user is not None and write:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            raise _bad("chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type == "private":
            user = self.users[chat.id]
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started and write:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat")
        return chat

    def _check_rate(self, method: str, chat: ChatState) -> None:
        if self._rate is None or method not in _COUNTED:
            return
        if self._rate_groups_only and chat.type == "private":
            return
        limit, window = self._rate
        now = time.monotonic()
        times = [t for t in self._sent_times.get(chat.id, []) if now - t < window]
        self._sent_times[chat.id] = times
        if len(times) >= limit:
            retry = max(1, math.ceil(window - (now - times[0])))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})
        times.append(now)

    def _render(self, params: JsonDict) -> tuple[str, str, list[JsonDict], str | None]:
        raw = params.get("text")
        source = "" if raw is None else str(raw)
        mode = params.get("parse_mode")
        mode = mode if isinstance(mode, str) and mode else None
        if mode is not None and mode.lower() == "html":
            try:
                plain, entities = parse_html(source)
            except HtmlError as error:
                raise _bad(f"can't parse entities: {error}") from None
        elif mode is not None and mode.lower() not in ("markdown", "markdownv2"):
            raise _bad(f"unsupported parse_mode {mode!r}")
        else:
            given = params.get("entities")
            plain, entities = source, list(given) if isinstance(given, list) else []
        plain, entities = strip_text(plain, entities)
        if not plain:
            raise _bad("message text is empty")
        if utf16_len(plain) > MAX_TEXT:  # counted as the entities are: in UTF-16 code units
            raise _bad("message is too long")
        return plain, source, entities, mode

    def _markup(self, params: JsonDict) -> JsonDict | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise _bad("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise _bad('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
        for row in rows:
            for button in row:
                _check_button(button)
        rows = [row for row in rows if row]
        return {"inline_keyboard": rows} if rows else None

    def _message(self, chat: ChatState, params: JsonDict, verb: str) -> SentMessage:
        message_id = params.get("message_id")
        if not isinstance(message_id, int):
            raise _bad("message identifier is not specified")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise _bad(f"message to {verb} not found")
        return message

    # ------------------------------------------------------------------ methods

    def _m_getMe(self, params: JsonDict) -> JsonDict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _m_setMyCommands(self, params: JsonDict) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad('parameter "commands" is required')
        if len(commands) > 100:
            raise _bad("too many commands")
        for command in commands:
            name = command.get("command", "") if isinstance(command, dict) else ""
            desc = command.get("description", "") if isinstance(command, dict) else ""
            valid = (
                1 <= len(name) <= 32
                and all(c.islower() or c.isdigit() or c == "_" for c in name)
                and name.isascii()
            )
            if not valid or not 1 <= len(str(desc)) <= 256:
                raise _bad("BOT_COMMAND_INVALID")
        key = (scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands[key] = [dict(c) for c in commands]
        return True

    def _m_getMyCommands(self, params: JsonDict) -> list[JsonDict]:
        key = (scope_key(params.get("scope")), str(params.get("language_code") or ""))
        return [dict(c) for c in self.commands.get(key, [])]

    def _m_deleteMyCommands(self, params: JsonDict) -> bool:
        key = (scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands.pop(key, None)
        return True

    def _m_setMyDescription(self, params: JsonDict) -> bool:
        return True

    def _m_setMyShortDescription(self, params: JsonDict) -> bool:
        return True

    def _m_setChatMenuButton(self, params: JsonDict) -> bool:
        button = params.get("menu_button")
        if "chat_id" in params:
            self._target_chat(params).menu_button = button
        return True

    def _m_getChatMenuButton(self, params: JsonDict) -> JsonDict:
        if "chat_id" in params:
            return self._target_chat(params).menu_button or {"type": "default"}
        return {"type": "commands"}

    def _m_sendMessage(self, params: JsonDict) -> JsonDict:
        chat = self._target_chat(params)
        plain, source, entities, mode = self._render(params)
        markup = self._markup(params)
        reply_to = params.get("reply_to_message_id")
        reply_parameters = params.get("reply_parameters")
        allow_missing = bool(params.get("allow_sending_without_reply"))
        if isinstance(reply_parameters, dict):
            reply_to = reply_parameters.get("message_id")
            allow_missing = bool(reply_parameters.get("allow_sending_without_reply"))
        if reply_to is not None:
            target = chat.messages.get(reply_to) if isinstance(reply_to, int) else None
            if target is None or target.deleted:
                if not allow_missing:
                    raise _bad("message to be replied not found")
                reply_to = None
        self._check_rate("sendmessage", chat)
        thread = self._thread(chat, params, reply_to)
        message = self.store_message(
            chat,
            MessageVersion(plain, source, tuple(entities), markup),
            sender_id=self.bot_id,
            from_bot=True,
            parse_mode=mode,
            reply_to=reply_to,
            thread_id=thread,
            disable_notification=bool(params.get("disable_notification")),
            link_preview_options=params.get("link_preview_options"),
        )
        return self.message_dict(message)

    def _m_sendDocument(self, params: JsonDict) -> JsonDict:
        """A document: uploaded (``attach://name`` or the field itself), with a caption."""
        document = self._upload(params, "document")
        message, out = self._send_file(params)
        message.document = document
        out["document"] = {
            "file_id": f"doc{message.message_id}",
            "file_unique_id": f"u{message.message_id}",
            "file_name": document.filename,
            "file_size": len(document.data),
        }
        return out

    def _m_sendPhoto(self, params: JsonDict) -> JsonDict:
        """A photo: uploaded as a document is, and held to Telegram's limits on a photo (an
        image, at most 10 MB, width + height at most 10000, sides at most 20 to 1); its bytes
        are kept (``SentMessage.photo``) for a test to open."""
        photo = self._upload(params, "photo")
        width, height = _photo_size(photo)
        message, out = self._send_file(params)
        message.photo = photo
        out["photo"] = [
            {
                "file_id": f"photo{message.message_id}",
                "file_unique_id": f"p{message.message_id}",
                "width": width,
                "height": height,
                "file_size": len(photo.data),
            }
        ]
        return out

    @staticmethod
    def _upload(params: JsonDict, field: str) -> Upload:
        """The file a request uploaded as ``field`` (``attach://name``, or the field itself)."""
        upload = params.get(field)
        if isinstance(upload, str) and upload.startswith("attach://"):
            upload = params.get(upload.removeprefix("attach://"))
        if not isinstance(upload, Upload):
            raise _bad(f"there is no {field} in the request")
        return upload

    def _send_file(self, params: JsonDict) -> tuple[SentMessage, JsonDict]:
        """A message that carries a file (the caller adds it): its caption, reply and topic."""
        chat = self._target_chat(params)
        caption = params.get("caption")
        plain, source, entities, mode = (
            self._render({**params, "text": caption}) if caption else ("", "", [], None)
        )
        self._check_rate("sendmessage", chat)
        reply_to = params.get("reply_to_message_id")
        reply_to = reply_to if isinstance(reply_to, int) else None
        message = self.store_message(
            chat,
            MessageVersion(plain, source, tuple(entities), None),
            sender_id=self.bot_id,
            from_bot=True,
            parse_mode=mode,
            reply_to=reply_to,
            thread_id=self._thread(chat, params, reply_to),
        )
        out = self.message_dict(message)
        out.pop("text", None)
        out.pop("entities", None)
        if caption:
            out["caption"] = plain
        return message, out

    def _edit_target(self, params: JsonDict) -> SentMessage:
        inline_id = params.get("inline_message_id")
        if inline_id:
            for chat in self.chats.values():
                for message in chat.messages.values():
                    if message.inline_message_id == inline_id and not message.deleted:
                        return message
            raise _bad("MESSAGE_ID_INVALID")
        chat = self._target_chat(params)
        message = self._message(chat, params, "edit")
        if not message.from_bot or not message.editable:
            raise _bad("message can't be edited")
        return message

    def _apply_edit(self, message: SentMessage, version: MessageVersion, method: str) -> Any:
        if version.key() == message.version.key():
            raise ApiError(400, NOT_MODIFIED)
        self._check_rate(method, self.chats[message.chat_id])
        message.version = version
        message.history.append(version)
        message.edits += 1
        message.edit_date = int(time.time())
        if message.inline_message_id is not None and message.via_bot:
            return True
        return self.message_dict(message)

    def _m_editMessageText(self, params: JsonDict) -> Any:
        message = self._edit_target(params)
        plain, source, entities, mode = self._render(params)
        version = MessageVersion(plain, source, tuple(entities), self._markup(params))
        message.parse_mode = mode
        if "link_preview_options" in params:
            message.link_preview_options = params["link_preview_options"]
        return self._apply_edit(message, version, "editmessagetext")

    def _m_editMessageReplyMarkup(self, params: JsonDict) -> Any:
        message = self._edit_target(params)
        old = message.version
        version = MessageVersion(old.text, old.html, old.entities, self._markup(params))
        return self._apply_edit(message, version, "editmessagereplymarkup")

    def _m_deleteMessage(self, params: JsonDict) -> bool:
        chat = self._target_chat(params)
        message = self._message(chat, params, "delete")
        self._delete(chat, message)
        return True

    def _m_deleteMessages(self, params: JsonDict) -> bool:
        chat = self._target_chat(params)
        ids = params.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise _bad("message_ids must be a non-empty array")
        found = [chat.messages[i] for i in ids if i in chat.messages]
        live = [m for m in found if not m.deleted]
        if not live:
            raise _bad("message to delete not found")
        for message in live:
            self._delete(chat, message)
        return True

    def _delete(self, chat: ChatState, message: SentMessage) -> None:
        if (
            not message.from_bot
            and chat.type != "private"
            and chat.bot_status not in ("administrator", "creator")
        ):
            raise _bad("message can't be deleted")
        message.deleted = True

    def _m_answerCallbackQuery(self, params: JsonDict) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        future = self._pending_callbacks.get(query_id)
        if query_id in self.callback_answers or future is None:
            raise ApiError(400, QUERY_TOO_OLD)
        life = self.query_life_s
        if life is not None and time.monotonic() - self._pressed_at[query_id] > life:
            del self._pending_callbacks[query_id]  # its presser waits in vain
            raise ApiError(400, QUERY_TOO_OLD)
        text = params.get("text")
        if text is not None and utf16_len(str(text)) > MAX_TOAST:
            raise _bad("MESSAGE_TOO_LONG")
        url = params.get("url")
        if url is not None:
            prefixes = (f"https://t.me/{self.bot_username}?", f"t.me/{self.bot_username}?")
            if not str(url).startswith(prefixes):
                raise _bad("URL_INVALID")
        answer = CallbackAnswer(
            query_id=query_id,
            text=None if text is None else str(text),
            show_alert=bool(params.get("show_alert")),
            url=None if url is None else str(url),
            cache_time=params.get("cache_time"),
            latency=time.monotonic() - self._pressed_at.pop(query_id, time.monotonic()),
        )
        self.callback_answers[query_id] = answer
        del self._pending_callbacks[query_id]
        if not future.done():
            future.set_result(answer)
        return True

    def _m_answerInlineQuery(self, params: JsonDict) -> bool:
        query_id = str(params.get("inline_query_id") or "")
        future = self._pending_inline.get(query_id)
        if query_id in self.inline_answers or future is None:
            raise ApiError(400, QUERY_TOO_OLD)
        results = params.get("results")
        if not isinstance(results, list) or len(results) > 50:
            raise _bad("RESULTS_TOO_MUCH" if isinstance(results, list) else "results is empty")
        seen: set[str] = set()
        for result in results:
            rid = str(result.get("id", "")) if isinstance(result, dict) else ""
            if not rid or len(rid.encode()) > 64:
                raise _bad("RESULT_ID_INVALID")
            if rid in seen:
                raise _bad("RESULT_ID_DUPLICATE")
            seen.add(rid)
            if result.get("type") == "article" and not (
                result.get("title") and isinstance(result.get("input_message_content"), dict)
            ):
                raise _bad("RESULT_INVALID")
            if "reply_markup" in result:
                self._markup({"reply_markup": result["reply_markup"]})
        self.inline_answers[query_id] = dict(params)
        del self._pending_inline[query_id]
        if not future.done():
            future.set_result([dict(r) for r in results])
        return True

    def _member_dict(self, chat: ChatState, user_id: int) -> JsonDict:
        if user_id == self.bot_id:
            status, user = chat.bot_status, self.bot_user
        else:
            sim = self.users.get(user_id)
            if sim is None:
                raise _bad("user not found")
            status, user = chat.members.get(user_id, "left"), sim.as_user()
        return member_object(user, status, is_member=user_id not in chat.restricted_out)

    def _m_getChatMember(self, params: JsonDict) -> JsonDict:
        chat = self._target_chat(params, write=False)
        user_id = params.get("user_id")
        if not isinstance(user_id, int):
            raise _bad("invalid user_id specified")
        return self._member_dict(chat, user_id)

    def _m_getChatAdministrators(self, params: JsonDict) -> list[JsonDict]:
        chat = self._target_chat(params, write=False)
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        ids = [uid for uid, s in chat.members.items() if s in ("creator", "administrator")]
        out = [self._member_dict(chat, uid) for uid in ids]
        if chat.bot_status == "administrator":
            out.append(self._member_dict(chat, self.bot_id))
        return out

    def _m_getChat(self, params: JsonDict) -> JsonDict:
        chat = self._target_chat(params, write=False)
        return {
            **chat.as_chat(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _m_sendChatAction(self, params: JsonDict) -> bool:
        self._target_chat(params)
        if not params.get("action"):
            raise _bad("wrong parameter action in request")
        return True


def _check_button(button: object) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise _bad("can't parse inline keyboard button: Text buttons are unallowed")
    actions = _ACTION_KEYS & set(button)
    if not actions:
        raise _bad("text buttons are unallowed in the inline keyboard")
    if len(actions) > 1:  # exactly one field besides text, icon_custom_emoji_id and style
        raise _bad("BUTTON_TYPE_INVALID")
    if "disabled" in button and button["disabled"] != {}:
        raise _bad('field "disabled" must be a DisabledButton object')
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
            raise _bad("BUTTON_DATA_INVALID")
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not url or any(c.isspace() for c in url):
            raise _bad("BUTTON_URL_INVALID")


def scope_key(scope: object) -> str:
    if not scope:
        return json.dumps({"type": "default"})
    return json.dumps(scope, sort_keys=True)
