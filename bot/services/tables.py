"""Tables: lobby, start, presses on hand messages, pulkas. No Telegram types here.

Every engine action is committed (action row + move counter, in one transaction) before the
caller sends anything. Engine states are cached per table and rebuilt from the action log.
"""

from __future__ import annotations

import random
import secrets
import string
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from bot.callbacks import Kind, Press
from bot.refused import Refused
from bot.render.common import esc
from bot.render.context import HandUI
from bot.render.games import FAMILIES
from bot.render.games.base import Apply, Deny, GameUI, SetUI
from bot.services.members import Members
from bot.storage.db import Database
from bot.storage.repo import Repo, SeatRow, TableRow
from engine.core import Line, State, View
from engine.errors import IllegalAction, InvalidNotation, InvalidOption
from engine.games import GAMES, new_game
from engine.options import option_fields, options_dict, parse_options
from engine.players import policy_for

NewGame = Callable[..., State]
IsAdmin = Callable[[], Awaitable[bool]]
CANCEL_ACTS: Final = frozenset("xw")  # the buttons of the reply to /cancel
NOTICE_ACTS: Final = frozenset("nw")  # the buttons of the unreachable-players notice


def _code() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(6))


def _seed() -> int:
    return secrets.randbelow(2**31)


@dataclass(slots=True)
class Live:
    """A running table in memory: its engine state for the current pulka."""

    state: State
    pulka_no: int
    first_seq: int


@dataclass(frozen=True, slots=True)
class Moved:
    table: TableRow
    seat: int
    action: str
    lines: tuple[Line, ...]
    ended: bool
    before: View[Any]  # the public view before the action (the deal as it was if it ended)


@dataclass(frozen=True, slots=True)
class UIChanged:
    table: TableRow
    seat: int


def seat_range(game: str) -> tuple[int, int]:
    counts = GAMES[game].seat_counts
    return min(counts), max(counts)


def family_ui(game: str) -> GameUI[Any] | None:
    spec = GAMES.get(game)
    return FAMILIES.get(spec.family) if spec else None


def option_refusal(game: str, error: InvalidOption) -> Refused:
    """What was wrong with a typed option, naming it and what is allowed (PRODUCT.md §16)."""
    p = {k: esc(str(v)) for k, v in error.params.items()}
    option, value = p.get("option", ""), p.get("value", "")
    if error.code == "unknown_option":
        names = ", ".join(f.name for f in option_fields(GAMES[game].options_type))
        return Refused("Unknown option {option}. Options: {list}.", option=option, list=names)
    if error.code == "option_out_of_range":
        return Refused(
            "{option}={value} is not allowed: from {low} to {high}.",
            option=option,
            value=value,
            low=p.get("low", ""),
            high=p.get("high", ""),
        )
    if error.code == "option_not_int":
        return Refused(
            "{option}={value} is not allowed: a whole number is needed.", option=option, value=value
        )
    if error.code == "option_not_bool":
        return Refused(
            "{option}={value} is not allowed: true or false.", option=option, value=value
        )
    if error.code == "option_not_allowed":
        return Refused(
            "{option}={value} is not allowed: one of {allowed}.",
            option=option,
            value=value,
            allowed=p.get("allowed", ""),
        )
    return Refused("Not allowed: {reason}.", reason=error.code)


class TableService:
    def __init__(
        self,
        db: Database,
        *,
        new_game_fn: NewGame = new_game,
        seeds: Callable[[], int] = _seed,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.repo = Repo(db)
        self._new_game = new_game_fn
        self._seeds = seeds
        self._clock = clock
        self._live: dict[int, Live] = {}

    # --- loading ------------------------------------------------------------------------

    async def table(self, table_id: int) -> TableRow | None:
        return await self.repo.table(table_id)

    async def live(self, table: TableRow) -> Live:
        """The table's current pulka (cached; rebuilt from the log after a restart)."""
        cached = self._live.get(table.id)
        if cached is not None:
            return cached
        no = table.generation + 1 if table.status == "running" else table.generation
        pulka = await self.repo.pulka(table.id, no)
        if pulka is None:
            raise RuntimeError(f"table {table.id} has no pulka {no}")
        seats = await self.repo.seats(table.id)
        state = self._new_game(
            table.game, len(seats), pulka.seed, table.options, prev_dealer=pulka.prev_dealer
        )
        for seat, action in await self.repo.actions(table.id, pulka.first_seq):
            state.apply(seat, action)
        live = Live(state, no, pulka.first_seq)
        self._live[table.id] = live
        return live

    def forget(self, table_id: int) -> None:
        self._live.pop(table_id, None)

    # --- lobby --------------------------------------------------------------------------

    async def open(
        self,
        chat_id: int,
        user_id: int,
        name: str,
        game: str,
        options: dict[str, str] | None = None,
    ) -> TableRow:
        """Open a lobby (``game`` "" = the picker); ``options`` as ``name=value`` texts."""
        current = await self.repo.open_table(chat_id)
        if current is not None and current.status in ("lobby", "running"):
            raise Refused(
                "There's already a table here: ↑",
                reply_to=current.table_msg_id or current.lobby_msg_id,
            )
        async with self.db.transaction():
            if current is not None:
                await self.repo.update_table(current.id, status="closed")
            chosen = self._default_options(game, options) if game else {}
            tid = await self.repo.create_table(
                chat_id, game, chosen, user_id, _code(), self._clock()
            )
            await self.repo.replace_seats(tid, [(user_id, name)])
        table = await self.repo.table(tid)
        assert table is not None
        return table

    @staticmethod
    def _default_options(game: str, given: dict[str, str] | None = None) -> dict[str, Any]:
        try:
            typed = parse_options(GAMES[game].options_type, given or {})
        except InvalidOption as error:
            raise option_refusal(game, error) from error
        return dict(options_dict(typed))

    async def ensure_lobby(self, table_id: int, generation: int | None = None) -> TableRow:
        table = await self.repo.table(table_id)
        if table is None or table.status == "closed":
            raise Refused("This table is closed.")
        if generation is not None and generation != table.generation:
            raise Refused("That button is out of date.")
        if table.status != "lobby":
            raise Refused("The game has started. Wait for the next pulka.")
        return table

    @staticmethod
    def check_message(
        table: TableRow, press: Press, chat_id: int | None, message_id: int | None
    ) -> int:
        """§7.2 step 4 for the group's buttons: a press counts only on the table's own message
        that carries it (chat id and message id as stored); that message's id. A client can
        send any data on any message, in any chat."""
        if chat_id == table.chat_id and message_id is not None:
            if press.kind is Kind.END and message_id == table.result_msg_id:
                return message_id
            if press.kind is Kind.LOBBY and (
                (message_id == table.lobby_msg_id and press.act != "n")
                or (message_id == table.cancel_msg_id and press.act in CANCEL_ACTS)
                or (message_id == table.notice_msg_id and press.act in NOTICE_ACTS)
            ):
                return message_id
        raise Refused("Unknown button.")

    async def ensure_member(self, table: TableRow, user_id: int, members: Members) -> None:
        """Only members of the table's group may press its buttons or join it (§3, §4.3)."""
        if await members.belongs(table.chat_id, user_id):
            return
        chat = await self.repo.chat(table.chat_id)
        raise Refused(
            "This table is in «{chat}», which you're not a member of.",
            chat=esc(chat.title if chat else ""),
        )

    async def _role(self, table: TableRow, user_id: int, is_admin: IsAdmin) -> None:
        if user_id == table.creator_id or await is_admin():
            return
        seats = await self.repo.seats(table.id)
        creator = next((s.name for s in seats if s.user_id == table.creator_id), "?")
        raise Refused("Only {creator} or an admin can do that.", creator=creator)

    async def pick(self, table_id: int, generation: int, user_id: int, game: str) -> TableRow:
        table = await self.ensure_lobby(table_id, generation)
        if user_id != table.creator_id:
            seats = await self.repo.seats(table.id)
            raise Refused("{name} picks the game.", name=seats[0].name if seats else "?")
        if game not in GAMES or family_ui(game) is None:
            raise Refused("This game is not available yet.")
        async with self.db.transaction():
            await self.repo.update_table(table.id, game=game, options=self._default_options(game))
        return await self.ensure_lobby(table_id)

    async def join(
        self, table_id: int, generation: int | None, user_id: int, name: str
    ) -> TableRow:
        table = await self.repo.table(table_id)
        if table is not None and table.status in ("running", "ended"):
            raise Refused("The game has started. Wait for the next pulka.")
        table = await self.ensure_lobby(table_id, generation)
        if not table.game:
            raise Refused("Pick a game first.")
        seats = await self.repo.seats(table.id)
        if any(s.user_id == user_id for s in seats):
            raise Refused("You're already seated.")
        _, most = seat_range(table.game)
        if len(seats) >= most:
            raise Refused("No seats left: the table has {n}.", n=len(seats))
        async with self.db.transaction():
            await self.repo.replace_seats(
                table.id, [(s.user_id, s.name) for s in seats] + [(user_id, name)]
            )
        return table

    async def leave(self, table_id: int, generation: int, user_id: int) -> TableRow:
        table = await self.ensure_lobby(table_id, generation)
        seats = await self.repo.seats(table.id)
        if not any(s.user_id == user_id for s in seats):
            raise Refused("You're not seated.")
        rest = [(s.user_id, s.name) for s in seats if s.user_id != user_id]
        async with self.db.transaction():
            await self.repo.replace_seats(table.id, rest)
            if not rest:
                await self.repo.update_table(table.id, status="closed")
            elif user_id == table.creator_id:
                await self.repo.update_table(table.id, creator_id=rest[0][0])
        updated = await self.repo.table(table.id)
        assert updated is not None
        return updated

    async def set_option(
        self, table_id: int, generation: int, user_id: int, name: str, value: str
    ) -> TableRow:
        table = await self.ensure_lobby(table_id, generation)
        if user_id != table.creator_id:
            seats = await self.repo.seats(table.id)
            creator = next((s.name for s in seats if s.user_id == table.creator_id), "?")
            raise Refused("Only {creator} can change the options.", creator=creator)
        given = dict(table.options)
        given[name] = value
        try:
            typed = parse_options(GAMES[table.game].options_type, given)
        except InvalidOption as error:
            raise option_refusal(table.game, error) from error
        async with self.db.transaction():
            await self.repo.update_table(table.id, options=dict(options_dict(typed)))
        return await self.ensure_lobby(table_id)

    async def check_start(
        self, table_id: int, generation: int, user_id: int, is_admin: IsAdmin
    ) -> tuple[TableRow, list[SeatRow]]:
        table = await self.ensure_lobby(table_id, generation)
        await self._role(table, user_id, is_admin)
        if not table.game:
            raise Refused("Pick a game first.")
        seats = await self.repo.seats(table.id)
        least, _ = seat_range(table.game)
        if len(seats) < least:
            raise Refused("At least {min} needed, now {n}.", min=least, n=len(seats))
        return table, seats

    async def check_role(
        self, table_id: int, generation: int, user_id: int, is_admin: IsAdmin
    ) -> TableRow:
        """An open table at this generation, and the presser is its creator or an admin."""
        table = await self.repo.table(table_id)
        if table is None or table.status == "closed":
            raise Refused("This table is closed.")
        if generation != table.generation:
            raise Refused("That button is out of date.")
        await self._role(table, user_id, is_admin)
        return table

    async def start_without_unreachable(
        self, table_id: int, generation: int, user_id: int, is_admin: IsAdmin
    ) -> tuple[TableRow, list[SeatRow]]:
        """Unseat everyone Start could not reach (§4.3), if enough players remain."""
        table, seats = await self.check_start(table_id, generation, user_id, is_admin)
        rest = []
        for seat in seats:
            row = await self.repo.user(seat.user_id)
            if row is not None and row.private_ok:
                rest.append(seat)
        least, _ = seat_range(table.game)
        if len(rest) < least:
            raise Refused("At least {min} needed, now {n}.", min=least, n=len(rest))
        if len(rest) < len(seats):
            async with self.db.transaction():
                await self.repo.replace_seats(table.id, [(s.user_id, s.name) for s in rest])
                if all(s.user_id != table.creator_id for s in rest):
                    await self.repo.update_table(table.id, creator_id=rest[0].user_id)
        updated = await self.ensure_lobby(table_id, generation)
        return updated, await self.repo.seats(table_id)

    async def start(self, table: TableRow, seats: list[SeatRow]) -> Live:
        """Start pulka 1: the first-dealer draw and the first deal."""
        return await self._start_pulka(table, len(seats), 1, None)

    async def _start_pulka(
        self, table: TableRow, players: int, no: int, prev_dealer: int | None
    ) -> Live:
        seed = self._seeds()
        state = self._new_game(table.game, players, seed, table.options, prev_dealer=prev_dealer)
        async with self.db.transaction():
            await self.repo.add_pulka(table.id, no, seed, prev_dealer, table.moves)
            await self.repo.update_table(table.id, status="running", generation=no - 1)
            await self.repo.clear_hand_ui(table.id)
        live = Live(state, no, table.moves)
        self._live[table.id] = live
        return live

    async def cancel(self, table_id: int, user_id: int, is_admin: IsAdmin) -> TableRow:
        table = await self.repo.table(table_id)
        if table is None or table.status == "closed":
            raise Refused("This table is closed.")
        await self._role(table, user_id, is_admin)
        async with self.db.transaction():
            await self.repo.update_table(table.id, status="closed")
        self.forget(table.id)
        return table

    # --- end of a pulka -----------------------------------------------------------------

    async def next_pulka(
        self, table_id: int, generation: int, user_id: int, is_admin: IsAdmin
    ) -> Live:
        table = await self.repo.table(table_id)
        if table is None or table.status != "ended":
            raise Refused("This table is closed.")
        if generation != table.generation:
            raise Refused("That button is out of date.")
        await self._role(table, user_id, is_admin)
        previous = await self.live(table)
        prev_dealer = previous.state.view(None).dealer
        seats = await self.repo.seats(table.id)
        return await self._start_pulka(table, len(seats), table.generation + 1, prev_dealer)

    async def finish(
        self, table_id: int, generation: int, user_id: int, is_admin: IsAdmin
    ) -> TableRow:
        table = await self.repo.table(table_id)
        if table is None or table.status != "ended" or generation != table.generation:
            raise Refused("This table is closed.")
        await self._role(table, user_id, is_admin)
        async with self.db.transaction():
            await self.repo.update_table(table.id, status="closed")
        self.forget(table.id)
        return table

    # --- seats the computer plays (PRODUCT.md §13) ------------------------------------------

    async def set_away(self, table: TableRow, seat: int, away: bool) -> bool:
        """Hand the seat to the computer (or back); False if it already was so."""
        seats = await self.repo.seats(table.id)
        if seat >= len(seats) or seats[seat].away == away:
            return False
        async with self.db.transaction():
            await self.repo.set_away(table.id, seat, away)
        return True

    async def computer_move(self, table: TableRow) -> Moved | None:
        """If the seat to act is away, the computer's move (committed); else None."""
        if table.status != "running":
            return None
        live = await self.live(table)
        seat = live.state.to_act
        seats = await self.repo.seats(table.id)
        if seat is None or not seats[seat].away:
            return None
        policy = policy_for(GAMES[table.game].family)
        rng = random.Random(f"{table.id}:{table.moves}")  # reproducible, not a secret
        action = policy(live.state.view(seat), rng)
        return await self._apply(table, live, seats, seat, str(action))

    # --- presses on hand messages (PRODUCT.md §7.2 steps 3–9) ------------------------------

    async def press(
        self, press: Press, data: str, user_id: int, chat_id: int, message_id: int
    ) -> Moved | UIChanged:
        """A hand press (``data`` as the client sent it) checked in §7.2's order, then applied."""
        table = await self.repo.table(press.table)
        if table is None or table.status != "running":
            raise Refused("This table is closed.")
        seats = await self.repo.seats(table.id)
        hands = await self.repo.hands(table.id)
        seat = press.seat
        if seat is None or seat >= len(seats):
            raise Refused("These aren't your cards.")
        hand = hands.get(seat)
        owner = seats[seat].user_id == user_id
        if hand is None or hand.chat_id != chat_id or hand.message_id != message_id:
            if owner and hand is not None and hand.chat_id == chat_id:
                raise Refused(
                    "That button is out of date — here are your current cards.", refresh=seat
                )
            raise Refused("These aren't your cards.")
        if not owner:
            raise Refused("These aren't your cards.")
        live = await self.live(table)
        state = live.state
        if press.version != table.moves:
            last = next((ln for ln in reversed(state.record()) if ln.get("t") == "act"), None)
            if (
                press.act == "p"
                and last is not None
                and last["seat"] == seat
                and last["a"] == f"card {press.arg}"
            ):
                raise Refused("Already played: {card}.", card=press.arg, refresh=seat)
            raise Refused("That button is out of date — here are your current cards.", refresh=seat)
        if hand.offers is None or data not in hand.offers:
            # §6.4: an older revision of this very message (marks or mode changed since, same
            # move counter); only what the message offers now counts
            raise Refused("That button is out of date — here are your current cards.", refresh=seat)
        ui_game = family_ui(table.game)
        assert ui_game is not None
        ui = HandUI(tuple(m for m in hand.marks.split(",") if m), hand.mode)
        if press.act == "u":
            return UIChanged(table, seat)
        if state.to_act != seat:
            if state.to_act is None:
                raise Refused("This table is closed.")
            raise Refused("It's {name}'s turn.", name=seats[state.to_act].name)
        meaning = ui_game.interpret(state.view(seat), press.act, press.arg, ui)
        if isinstance(meaning, Deny):
            raise Refused(meaning.msgid, engine=meaning.engine, **meaning.params)
        if isinstance(meaning, SetUI):
            async with self.db.transaction():
                await self.repo.set_hand_ui(
                    table.id, seat, ",".join(meaning.ui.marks), meaning.ui.mode
                )
            return UIChanged(table, seat)
        assert isinstance(meaning, Apply)
        return await self._apply(table, live, seats, seat, meaning.action)

    async def _apply(
        self, table: TableRow, live: Live, seats: list[SeatRow], seat: int, action: object
    ) -> Moved:
        before = live.state.view(None)
        try:
            lines = live.state.apply(seat, action)
        except IllegalAction as error:
            refused = Refused("Not allowed: {reason}.", engine=error.code)
            refused.params = dict(error.params)
            raise refused from error
        except InvalidNotation as error:
            raise Refused("Unknown button.") from error
        ended = live.state.is_over
        try:
            async with self.db.transaction():
                await self.repo.add_action(table.id, table.moves, seat, str(lines[0]["a"]))
                fields: dict[str, Any] = {"moves": table.moves + 1}
                await self.repo.clear_hand_ui(table.id)
                if ended:
                    result = live.state.result
                    net = list(result.net) if result else [0] * len(seats)
                    await self.repo.set_pulka_net(table.id, live.pulka_no, net)
                    winner = result.winner if result else None
                    for s in seats:
                        await self.repo.book(
                            table.chat_id, table.game, s.user_id, net[s.seat], s.seat == winner
                        )
                    fields.update(status="ended", generation=live.pulka_no)
                await self.repo.update_table(table.id, **fields)
        except BaseException:
            self.forget(table.id)  # the state is ahead of the log; rebuild it from the log
            raise
        updated = await self.repo.table(table.id)
        assert updated is not None
        return Moved(updated, seat, str(lines[0]["a"]), lines, ended, before)
