"""A person's text is never markup, and every text fits Telegram's limits, as pure
functions: the escaping boundary, the refusals, the limits module, /score's pages, options."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.callbacks import PressCodec
from bot.game_names import game_name
from bot.i18n import Catalogues
from bot.markup import Html, esc
from bot.message_limits import MAX_TEXT, MAX_TOAST, fit, pages, plain_length, toast, units
from bot.refused import BotRefusal, Refused
from bot.render import lobby as screens
from bot.render.refusals import refusal_html, refusal_text
from bot.render.score import NAME_MAX, score
from bot.rendered import Rendered
from bot.runtime.lobby_options import option_refusal
from bot.runtime.outcome import Pane
from bot.runtime.scoreboard import Board, BoardLine
from bot.storage.rows import SeatKind, SeatRow, TableRow, TableStatus
from engine.errors import InvalidOption
from engine.games import GAMES
from engine.options import option_fields, options_dict, parse_options
from tests.fakeapi.html import parse_html, utf16_len

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Catalogues.load(ROOT / "locales")
LINK = '<a href="https://evil.example/">Admins</a>'
HOSTILE = (
    LINK,
    "Tom <3",
    "Tom &amp; Jerry",
    "<b>bold</b> & <i>",
    "\u200fשלום\u202e evil",
    "🦄" * 32,  # 32 characters, 64 UTF-16 units
    "W" * 64,
)


def parsed(text: str) -> tuple[str, list[dict[str, object]]]:
    """What Telegram shows of an HTML text (raises as Telegram refuses it)."""
    return parse_html(text)


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("name", HOSTILE)
def test_a_refusal_names_a_person_as_text_in_a_message_and_a_toast(locale: str, name: str) -> None:
    tr = CATALOGUES.tr(locale)
    for refused in (
        Refused(BotRefusal.CREATOR_OR_ADMIN, creator=name),
        Refused(BotRefusal.NOT_AT_TABLE, name=name),
        Refused(BotRefusal.NOT_IN_GROUP, chat=name),
    ):
        text, entities = parsed(refusal_html(refused, tr))
        assert name in text and not entities  # shown as typed; no link, no bold
        assert name in refusal_text(refused, tr)  # a toast is plain: no &amp; in it


def test_html_escapes_plain_params_once_and_keeps_html() -> None:
    tr = CATALOGUES.tr("en")
    out = tr.html("To play: <b>{name}</b>", name="Tom & <Jerry>")
    assert isinstance(out, Html)
    assert out == "To play: <b>Tom &amp; &lt;Jerry&gt;</b>"
    assert tr.html("To play: <b>{name}</b>", name=esc("Tom & Jerry")) == (
        "To play: <b>Tom &amp; Jerry</b>"
    )  # escaped once, not twice
    assert esc(esc("&")) == "&amp;"
    assert tr("To play: <b>{name}</b>", name="A & B") == "To play: <b>A & B</b>"  # plain


def test_fit_keeps_a_text_at_the_limit_and_cuts_one_over() -> None:
    line = "<b>12345678</b>\n"  # 9 characters shown
    exact = line * (MAX_TEXT // 9) + "x" * (MAX_TEXT % 9)
    assert plain_length(exact) == MAX_TEXT
    at_limit = Rendered(exact)
    assert fit(at_limit) is at_limit
    over = Rendered(exact + "y")
    cut = fit(over)
    text, _ = parsed(cut.text)
    assert utf16_len(text) <= MAX_TEXT and text.endswith("…")
    assert cut.markup is over.markup


def test_fit_counts_utf16_and_closes_tags_when_cutting_mid_line() -> None:
    long_line = "<b>" + "🦄" * 3000 + "</b>"  # one line of 6,000 UTF-16 units
    cut = fit(Rendered(Html(long_line)))
    assert isinstance(cut.text, Html)
    text, entities = parsed(cut.text)  # balanced: Telegram takes it
    assert utf16_len(text) <= MAX_TEXT and text.endswith("…")
    assert entities and entities[0]["type"] == "bold"
    refs = "&amp;" * 5000  # each is one character shown
    text, _ = parsed(fit(Rendered(refs)).text)
    assert utf16_len(text) <= MAX_TEXT and text.startswith("&&&")


def test_toast_at_and_over_the_limit() -> None:
    assert toast("a" * MAX_TOAST) == "a" * MAX_TOAST
    assert units(toast("🦄" * 101)) <= MAX_TOAST and toast("🦄" * 101).endswith("…")
    refused = Refused(BotRefusal.NOT_AT_TABLE, name="W" * 300)
    assert units(refusal_text(refused, CATALOGUES.tr("ru"))) <= MAX_TOAST


def test_pages_split_between_blocks_and_inside_a_too_long_one() -> None:
    block = ["", "<b>head</b>", *(f"{i}. " + "x" * 100 for i in range(30))]  # ~3,200 shown
    out = pages([["top"], block, block, block], 4096)
    assert len(out) == 3
    for page in out:
        text, _ = parsed(page)
        assert utf16_len(text) <= 4096
    assert out[0].startswith("top\n\n<b>head</b>") and out[1].startswith("<b>head</b>")
    huge = pages([[f"{i}. " + "y" * 200 for i in range(100)]], 4096)  # one block of 20,000
    assert len(huge) == 6 and all(plain_length(p) <= 4096 for p in huge)
    assert "".join(huge).count("y" * 200) == 100  # every line, whole, once


def ledger(names: list[str]) -> list[Board]:
    """Every game's leaderboard: the names, rated (and the last unrated), and a computer level."""
    return [
        Board(
            game,
            (
                *(
                    BoardLine(
                        100 + i,
                        name,
                        "",
                        -1234 + i if i < 9 else None,
                        999,
                        99,
                        -12345 * (i - 5),
                        -1234,
                    )
                    for i, name in enumerate(names)
                ),
                BoardLine(0, "", "hard", 1234, 99999, 9999, -1234567),
            ),
        )
        for game in GAMES
    ]


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_long_score_is_several_messages_each_within_the_limit(locale: str) -> None:
    """Ten players with 64-character names in seven games: about 11,000 characters."""
    names = [f"{i}" + ("🦄" if i % 2 else "Ж") * 63 for i in range(10)]
    tr = CATALOGUES.tr(locale)
    shown = score("<b>Club</b> & Co" + "!" * 115, Html("<b>now</b>"), ledger(names), tr)
    assert len(shown) > 1
    texts = []
    for page in shown:
        text, entities = parsed(page)
        assert utf16_len(text) <= MAX_TEXT
        assert all(e["type"] == "bold" for e in entities)
        texts.append(text)
    everything = "\n".join(texts)
    assert "<b>Club</b> & Co" in everything
    for game in GAMES:  # each game's block whole on one page
        (holder,) = [t for t in texts if f"{game_name(game, locale)} —" in t]
        # a long name is cut on a leaderboard (NAME_MAX), never lost
        assert all(name[: NAME_MAX - 1] + "…" in holder for name in names)
        assert all(name not in holder for name in names)


def test_a_short_score_is_one_message() -> None:
    shown = score("Club", None, ledger(["Anna", "Boris"]), CATALOGUES.tr("en"))
    assert len(shown) == 1


MALFORMED = ("²", "--5", "-", "+", "٣", "1_0", "1.5", "5e2", "0x10", " ", "", "9" * 5000, "<b>")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_option_of_every_game_refuses_malformed_values_clearly(game: str) -> None:
    """``str.isdigit`` takes "²", ``int`` does not: no value may get past the checks and raise."""
    options = GAMES[game].options_type
    tr = CATALOGUES.tr("en")
    for field in option_fields(options):
        for value in MALFORMED:
            if (
                field.metadata["kind"] == "enum"
                and value.strip().lower() in (field.metadata["choices"])
            ):
                continue
            with pytest.raises(InvalidOption) as caught:
                parse_options(options, {field.name: value})
            refused = option_refusal(game, caught.value)
            text, entities = parsed(refusal_html(refused, tr))
            assert text.startswith(f"{field.name}=") and not entities, text
            assert "is not allowed" in text and len(text) < 200, text
    for bad_name in ("<a>", "x" * 500, ""):
        with pytest.raises(InvalidOption) as caught:
            parse_options(options, {bad_name: "1"})
        text, _ = parsed(refusal_html(option_refusal(game, caught.value), tr))
        assert text.startswith("Unknown option") and len(text) < 400, text


def test_integer_options_take_a_sign_and_ascii_digits() -> None:
    options = GAMES["mushka"].options_type
    (target,) = [f for f in option_fields(options) if f.name == "target"]
    low, high = target.metadata["range"]
    assert dataclasses.asdict(parse_options(options, {"target": f"+{low}"}))["target"] == low
    assert dataclasses.asdict(parse_options(options, {"target": f" {high} "}))["target"] == high
    with pytest.raises(InvalidOption) as caught:
        parse_options(options, {"target": f"-{high}"})
    assert caught.value.code == "option_out_of_range"


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("game", ["", *sorted(GAMES)])
def test_every_lobby_screen_shows_hostile_names_as_text(locale: str, game: str) -> None:
    """The picker, seating, options and computers panes, the cancel question, the notice of
    unreachable players and the started lobby, with eight hostile names of 64 characters."""
    tr = CATALOGUES.tr(locale)
    codec = PressCodec.from_token("123456:TEST-token")
    names = [(h + "·" * 64)[:64] for h in HOSTILE] + ["🤖 " + LINK]
    most = max(GAMES[game].seat_counts) if game else 8
    seats = [
        SeatRow(i, None, n, kind=SeatKind.COMPUTER, level="easy")
        if n.startswith("🤖")
        else SeatRow(i, 100 + i, n)
        for i, n in enumerate(names[-most:])
    ]
    options = dict(options_dict(parse_options(GAMES[game].options_type, {}))) if game else {}
    table = TableRow(42, -100, game, options, TableStatus.LOBBY, 100 + len(names) - most, "j", 0, 0)
    plain = [s.name for s in seats if s.user_id is not None]
    panes: tuple[Pane, ...] = (False, True, "computers")
    shown: list[Rendered] = [
        screens.lobby(table, seats, tr, codec, options_view=pane, unreachable=plain, link="x")
        for pane in panes
    ]
    shown += [
        screens.lobby(table, seats, tr, codec, confirm_cancel=True),
        screens.cancel_question(table, tr, codec),
        screens.unreachable_notice(table, plain, tr, codec, "https://t.me/b?start=s"),
    ]
    if game:
        draw = {
            "t": "seats",
            "players": len(seats),
            "by": "draw",
            "draw": [["7S", "8H", *([None] * (len(seats) - 2))]],
            "first_dealer": 0,
        }
        shown.append(Rendered(screens.started(table, seats, draw, tr)))
    for rendered in shown:
        text, entities = parsed(fit(rendered).text)
        assert utf16_len(text) <= MAX_TEXT
        assert all(e["type"] == "bold" for e in entities), rendered.text
        for button in rendered.markup.buttons() if rendered.markup else ():
            assert "&amp;" not in button.text and "&lt;" not in button.text, button.text
    seating = parsed(shown[0].text)[0]
    expected = [s.name for s in seats if game or s.user_id == table.creator_id]
    assert expected and all(name in seating for name in expected), seating


def test_the_score_heading_opens_the_first_page_with_a_game() -> None:
    names = [f"{i}" + "Ж" * 63 for i in range(10)]
    shown = score("Club", None, ledger(names), CATALOGUES.tr("en"), size=1500)
    assert len(shown) > 2
    first = parsed(shown[0])[0]
    assert first.startswith('📊 Score — "Club"') and "Mushka — rating · games · money" in first
