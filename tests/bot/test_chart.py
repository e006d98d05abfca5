"""A finished game's chart, rendered from real records (the frozen ones of
tests/golden/records, and games the engine's computer players play) and read back with Pillow:
its size, ink, the players' names in its text chunks and legend, Cyrillic drawn, and the marks
where the record has them."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from PIL import Image, ImageFont
from PIL.PngImagePlugin import PngImageFile

from bot.game_names import game_name
from bot.i18n import Catalogues
from bot.render.chart import (
    HEIGHT,
    MARK_COLOURS,
    NO_GLYPH,
    WIDTH,
    Mark,
    Marker,
    Plot,
    Series,
    Words,
    draw,
    font_bytes,
    frame,
    legend_names,
)
from bot.render.games.charts import chart, has_chart, series
from engine.core import Line, State
from engine.games import new_game
from engine.lines import LineKind, last
from engine.players import computer
from engine.record import read_jsonl, split_records

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "golden" / "records"
CATALOGUES = Catalogues.load(ROOT / "locales")
RU, EN = CATALOGUES.tr("ru"), CATALOGUES.tr("en")
NAMES = ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна")
CHARTED = ("mushka", "pamfil", "shutikha", "mistigri", "kopilka", "konchinka")


def golden(name: str) -> list[list[Line]]:
    """The records of one file of tests/golden/records."""
    return list(split_records(read_jsonl((RECORDS / f"{name}.jsonl").read_text("utf-8"))))


GOLDEN = [
    pytest.param(record, id=f"{path.stem}-{n}")
    for path in sorted(RECORDS.glob("*.jsonl"))
    for n, record in enumerate(golden(path.stem), start=1)
]


def names_of(record: Sequence[Line]) -> tuple[str, ...]:
    return NAMES[: int(record[0]["players"])]


def opened(png: bytes) -> PngImageFile:
    """The picture read back: a PNG, its text chunks loaded."""
    image = Image.open(io.BytesIO(png))
    assert isinstance(image, PngImageFile)
    image.load()
    return image


def ink(image: Image.Image) -> float:
    """The share of the picture that is not white."""
    white = image.convert("L").histogram()[255]
    return 1 - white / (image.width * image.height)


def played(game: str, players: int, seed: int, options: dict[str, str]) -> State:
    """A whole game, every seat the engine's easy computer player."""
    state = new_game(game, players, seed, options)
    policy = computer(game, "easy")
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    while (seat := state.to_act) is not None:
        state.apply(seat, policy(state.view(seat), rngs[seat]))
    return state


def marked(record: Sequence[Line], names: Sequence[str]) -> tuple[Series, PngImageFile]:
    shown = series(record[0]["game"], "Пятница", 1, names, record, RU)
    assert shown is not None
    return shown, opened(draw(shown))


def assert_drawn_at(image: Image.Image, shown: Series, markers: Sequence[Marker]) -> None:
    """Each marker no other one covers is drawn in its mark's colour at its point."""
    box = frame(shown)

    def at(m: Marker) -> tuple[float, float]:
        return box.point(m.deal, m.seat, shown.plot.deals[m.deal - 1][m.seat])

    everywhere = [at(m) for m in shown.plot.markers]
    alone = [
        m
        for m in markers
        if sum(1 for x, y in everywhere if abs(x - at(m)[0]) + abs(y - at(m)[1]) < 30) == 1
    ]
    assert alone, "every marker is covered by another: choose another record"
    for m in alone:
        x, y = at(m)
        pixel = image.getpixel((round(x), round(y)))
        assert isinstance(pixel, tuple)
        want = MARK_COLOURS[m.mark]
        assert all(abs(a - b) <= 12 for a, b in zip(pixel, want, strict=True)), (m, pixel, want)


@pytest.mark.parametrize("record", GOLDEN)
def test_a_finished_game_s_record_draws_its_chart(record: list[Line]) -> None:
    game = record[0]["game"]
    names = names_of(record)
    png = chart(game, "Пятница", 2, names, record, RU)
    if game == "lenturlu":  # a game of one deal: no chart
        assert png is None and not has_chart(game)
        return
    assert png is not None and has_chart(game)
    image = opened(png)
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert ink(image) > 0.02  # the axes, the grid, a line a player, the legend
    assert image.text["Legend"].split("\n") == list(names)
    match = {"kopilka": "партия", "konchinka": "партия"}.get(game, "пулька")
    assert image.text["Title"] == f"«Пятница» · {game_name(game, 'ru')} · {match} 2"
    assert len(png) < 10 * 1024 * 1024  # Telegram's limit on a photo


@pytest.mark.parametrize("game", CHARTED)
def test_a_game_the_computers_played_draws_its_chart_in_english_too(game: str) -> None:
    players = {"kopilka": 4, "konchinka": 3}.get(game, 5)
    options = {"target": "10"} if game not in ("kopilka", "konchinka") else {}
    state = played(game, players, 35, options)
    record = state.record()
    png = chart(game, "Friday", 1, names_of(record), record, EN)
    assert png is not None
    image = opened(png)
    assert image.size == (WIDTH, HEIGHT) and ink(image) > 0.03
    assert image.text["Title"].startswith(f'"Friday" · {game_name(game, "en")} · ')
    assert image.text["Legend"].split("\n") == list(names_of(record))


def test_r1_5_7_an_overshoot_is_marked_and_the_count_is_back_at_the_target() -> None:
    record = golden("mushka-3p-target5")[1]
    shown, image = marked(record, NAMES[:3])
    ends = [ln for ln in record if ln["t"] == "deal_end"]
    over = {
        (no, s["seat"]) for no, end in enumerate(ends, 1) for s in end["seats"] if s["overshoot"]
    }
    assert over  # the record has overshoots
    marks = [m for m in shown.plot.markers if m.mark is Mark.OVERSHOOT]
    assert {(m.deal, m.seat) for m in marks} == over
    target = record[0]["options"]["target"]
    assert all(shown.plot.deals[m.deal - 1][m.seat] == target for m in marks)
    assert shown.plot.target == target
    assert shown.plot.deals == tuple(
        tuple(s["after"] for s in sorted(end["seats"], key=lambda s: s["seat"])) for end in ends
    )
    assert_drawn_at(image, shown, marks)


def test_r1_5_a_remise_is_marked_where_the_count_rose() -> None:
    record = golden("mushka-3p-target5")[2]
    shown, image = marked(record, NAMES[:3])
    ends = [ln for ln in record if ln["t"] == "deal_end"]
    rose = {
        (no, s["seat"]): s["remise"]
        for no, end in enumerate(ends, 1)
        for s in end["seats"]
        if s["after"] > s["before"] and not s["overshoot"]
    }
    assert rose and all(remise > 0 for remise in rose.values())  # RECORD.md §R6.3's R
    marks = [m for m in shown.plot.markers if m.mark is Mark.REMISE]
    assert {(m.deal, m.seat) for m in marks} == set(rose)
    assert_drawn_at(image, shown, marks)


@pytest.mark.parametrize(("players", "seed", "options"), [(5, 7, {"target": "10"}), (3, 1528, {})])
def test_r1_6_4_an_instant_win_is_marked_on_the_winner_at_its_deal(
    players: int, seed: int, options: dict[str, str]
) -> None:
    # Мистигри: the king of clubs and four of a suit win the pulka at the deal (§1.3.11); seed
    # 1528 at the very first deal
    state = new_game("mistigri", players, seed, options)
    policy = computer("mistigri", "normal")
    rngs = [random.Random(seed * 31 + s) for s in range(players)]
    while (seat := state.to_act) is not None:
        state.apply(seat, policy(state.view(seat), rngs[seat]))
    record = state.record()
    end = last(record, LineKind.END)
    assert end is not None and end["reason"] == "instant"
    shown, image = marked(record, NAMES[:players])
    deals = len(shown.plot.deals)
    instant = [m for m in shown.plot.markers if m.mark is Mark.INSTANT]
    assert instant == [Marker(deals, end["winner"], Mark.INSTANT)]
    assert_drawn_at(image, shown, instant)


def test_r2_a_partia_s_points_add_up_from_zero_without_a_target() -> None:
    record = golden("kopilka-4p")[0]
    shown = series("kopilka", "Пятница", 1, NAMES[:4], record, RU)
    assert shown is not None
    ends = [ln for ln in record if ln["t"] == "deal_end"]
    assert shown.plot.start == (0, 0, 0, 0) and len(shown.plot.deals) == 4 == len(ends)
    assert shown.plot.deals[-1] == tuple(record[-1]["points"])
    assert shown.plot.target is None and shown.plot.markers == ()


def test_r4_4_a_konchinka_game_s_totals_rise_towards_the_target() -> None:
    for record in golden("konchinka-4p-court-pot"):
        shown = series("konchinka", "", 1, NAMES[:4], record, RU)
        assert shown is not None
        assert shown.title == "Кончинка · партия 1"  # no chat (a /record in private): no «»
        assert shown.plot.start == (0, 0, 0, 0) and shown.plot.target == 5
        assert shown.plot.deals[-1] == tuple(record[-1]["totals"])
        rows = shown.plot.deals
        steps = itertools.pairwise(rows)
        assert all(a <= b for one, two in steps for a, b in zip(one, two, strict=True))


def test_a_game_with_no_deal_ended_has_no_chart() -> None:
    state = new_game("mushka", 3, 5, {})
    state.abandon()
    assert chart("mushka", "Пятница", 1, NAMES[:3], state.record(), RU) is None


def test_the_vendored_font_draws_cyrillic_not_the_empty_box() -> None:
    font = ImageFont.truetype(io.BytesIO(font_bytes()), 32)
    box = font.getmask(NO_GLYPH)
    for ch in "ЖжЁщЫ":
        glyph = font.getmask(ch)
        assert any(bytes(glyph)), ch  # ink
        assert (glyph.size, bytes(glyph)) != (box.size, bytes(box)), ch  # not the empty box


def test_a_cyrillic_name_is_drawn_in_the_legend() -> None:
    def legend_row(name: str) -> Image.Image:
        plot = Plot((25, 25), ((20, 30),))
        image = opened(draw(Series("t", (name, "Б"), plot, Words("Deal"))))
        left = frame(Series("t", (name, "Б"), plot, Words("Deal"))).right + 64
        return image.crop((left, 66, left + 100, 86))  # the first row's name

    zhuk, box = legend_row("Жук"), legend_row(NO_GLYPH * 3)
    assert ink(zhuk) > 0.05
    assert zhuk.tobytes() != box.tobytes()


def test_names_are_data_long_emoji_and_rtl_ones_stay_readable() -> None:
    names = (
        "Аня 🌸",
        "Очень-очень длинное имя игрока, который любит печатать " * 3,
        "🌸🌸🌸",
        "דוד",
        "سارة",
        "Line\nbreak",
    )
    plot = Plot((25,) * 6, ((20, 21, 22, 23, 24, 0),), target=25)
    shown = Series("«Пятница» · Мушка · пулька 2", names, plot, Words("Раздача"))
    image = opened(draw(shown))
    assert image.text["Legend"].split("\n") == [" ".join(n.split()) for n in names]
    drawn = legend_names(shown)
    assert drawn[0] == "Аня"  # the font has no emoji: left out, not a box
    assert drawn[1].endswith("…") and len(drawn[1]) < 30
    assert drawn[2] == "?"
    assert drawn[3] == "דוד" and drawn[4] == "سارة"
    assert drawn[5] == "Line break"


def test_the_picture_keeps_within_telegram_s_limits_however_long_the_game() -> None:
    seats = 7
    rows = tuple(tuple((d * (s + 3)) % 31 for s in range(seats)) for d in range(1, 301))
    plot = Plot((25,) * seats, rows, (Marker(300, 0, Mark.OVERSHOOT),), target=25)
    png = draw(Series("«" + "Очень длинный чат " * 20 + "»", NAMES, plot, Words("Deal")))
    image = opened(png)
    assert image.size == (WIDTH, HEIGHT) and len(png) < 10 * 1024 * 1024
    assert WIDTH + HEIGHT <= 10_000 and max(WIDTH, HEIGHT) <= 20 * min(WIDTH, HEIGHT)
    assert ink(image) > 0.05
