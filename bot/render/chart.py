"""A game's chart: each seat's figure deal by deal — a pulka's counts falling towards
zero, a partia's points, a Кончинка game's totals — drawn as a PNG with Pillow.

Pure: a :class:`Series` (the figures and every word already translated) in, PNG bytes out.
Nothing is read but the vendored font, DejaVu Sans (``bot/assets/fonts``: Pillow's own font has
no Cyrillic). The PNG carries its title and the players' names as text chunks (``Title``,
``Legend``), for tests and for tools that read pictures aloud.

Pillow, not matplotlib: 22 MB installed and 15 ms to import; matplotlib needs Pillow itself,
plus numpy and fontTools (some 150 MB more), and 300 ms to import. A chart takes about 20 ms.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib.resources import files
from typing import Final

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

WIDTH: Final = 1000
HEIGHT: Final = 600
FONT: Final = "assets/fonts/DejaVuSans.ttf"  # inside the bot package
NO_GLYPH: Final = "\U0010fffd"  # a character no font has: drawn as the font's empty box

Colour = tuple[int, int, int]
Font = ImageFont.FreeTypeFont


def _rgb(hex_code: str) -> Colour:
    return (int(hex_code[1:3], 16), int(hex_code[3:5], 16), int(hex_code[5:7], 16))


WHITE: Final = _rgb("#ffffff")
INK: Final = _rgb("#212529")  # text
AXIS: Final = _rgb("#868e96")
GRID: Final = _rgb("#e9ecef")
PALETTE: Final = tuple(
    _rgb(c)  # one per seat; no red, orange or yellow: those are the marks'
    for c in (
        "#1971c2",
        "#2f9e44",
        "#9c36b5",
        "#0c8599",
        "#d6336c",
        "#7f4f24",
        "#495057",
        "#364fc7",
    )
)


class Mark(StrEnum):
    """Something a deal did to one seat's figure, drawn over its point."""

    REMISE = "remise"  # the count rose (RULES.md §1.5)
    OVERSHOOT = "overshoot"  # below zero: back to the target (§1.5.7 b)
    INSTANT = "instant"  # the pulka won at the deal (§1.6.4)


MARK_COLOURS: Final[Mapping[Mark, Colour]] = {
    Mark.REMISE: _rgb("#fd7e14"),
    Mark.OVERSHOOT: _rgb("#e03131"),
    Mark.INSTANT: _rgb("#fab005"),
}


@dataclass(frozen=True, slots=True)
class Marker:
    deal: int  # as the record numbers deals: 1, 2, …
    seat: int
    mark: Mark


@dataclass(frozen=True, slots=True)
class Plot:
    """What a family draws of one game's record: each seat's figure before the first deal
    (``start``) and after every deal (``deals``, one row a deal, in seat order), the marks, and
    a line across at ``target`` (None: none) labelled ``target_words``; ``match``: the family's
    word for one game, for the title ("pulka")."""

    start: tuple[int, ...]
    deals: tuple[tuple[int, ...], ...]
    markers: tuple[Marker, ...] = ()
    target: int | None = None
    target_words: str = ""
    match: str = ""

    def values(self, seat: int) -> list[int]:
        """The seat's figure at x = 0 (the start), 1, 2, … (after each deal)."""
        return [self.start[seat], *(row[seat] for row in self.deals)]


@dataclass(frozen=True, slots=True)
class Words:
    """The picture's common words, in its reader's language."""

    deal: str  # the x axis: "Deal"
    marks: Mapping[Mark, str] = field(default_factory=dict)  # the legend's words for the marks


@dataclass(frozen=True, slots=True)
class Series:
    """One chart: its title, the players' names in seat order, the family's plot, the words."""

    title: str
    names: tuple[str, ...]
    plot: Plot
    words: Words


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the plot sits in the picture and how figures map onto it (``scale``: pixels of
    the drawing per pixel of the picture)."""

    left: int
    top: int
    right: int
    bottom: int
    deals: int
    low: int
    high: int
    step: int  # between the y axis's ticks
    seats: int
    scale: int = 1

    def x(self, deal: int) -> float:
        return self.left + (self.right - self.left) * deal / max(self.deals, 1)

    def y(self, value: int) -> float:
        return self.bottom - (self.bottom - self.top) * (value - self.low) / (self.high - self.low)

    def point(self, deal: int, seat: int, value: int) -> tuple[float, float]:
        """Seat ``seat``'s point at x = ``deal``: lines that run together are drawn a little
        apart (2 px a seat), so each stays visible."""
        spread = (seat - (self.seats - 1) / 2) * 2 * self.scale
        return self.x(deal), self.y(value) + spread


def frame(series: Series, width: int = WIDTH, height: int = HEIGHT, scale: int = 1) -> Frame:
    """The plot's frame for ``series`` in a picture ``width`` × ``height`` (the legend takes
    the right-hand side)."""
    plot = series.plot
    every = [v for s in range(len(series.names)) for v in plot.values(s)]
    if plot.target is not None:
        every.append(plot.target)
    low, high = min(0, *every), max(1, *every)
    step = _step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    legend = width * 23 // 100
    return Frame(
        left=70 * scale,
        top=64 * scale,
        right=(width - legend - 30) * scale,
        bottom=(height - 64) * scale,
        deals=len(plot.deals),
        low=low,
        high=high,
        step=step,
        seats=len(series.names),
        scale=scale,
    )


def _step(span: int) -> int:
    """A round step giving at most 10 ticks over ``span``."""
    for scale in (1, 10, 100, 1000, 10_000):
        for base in (1, 2, 5):
            if span / (base * scale) <= 10:
                return base * scale
    return 100_000


SMOOTH: Final = 2  # drawn twice as large, then scaled down: smooth lines and edges
MOST_CHARACTERS: Final = 300  # more than any line of the picture holds (a name can be longer)


def draw(series: Series, width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """The chart of ``series`` as PNG bytes, ``width`` × ``height``."""
    k = SMOOTH
    fonts = _fonts(k)
    image = Image.new("RGB", (width * k, height * k), WHITE)
    pen = ImageDraw.Draw(image)
    box = frame(series, width, height, k)
    title = _fit(_drawable(series.title, fonts[22]), fonts[22], (width - 40) * k)
    pen.text((20 * k, 18 * k), title, fill=INK, font=fonts[22])
    _axes(pen, box, series, fonts[14])
    for seat in range(len(series.names)):
        colour = PALETTE[seat % len(PALETTE)]
        points = [box.point(d, seat, v) for d, v in enumerate(series.plot.values(seat))]
        if len(points) > 1:
            pen.line(points, fill=colour, width=3 * k, joint="curve")
        for x, y in points:
            pen.ellipse((x - 4 * k, y - 4 * k, x + 4 * k, y + 4 * k), fill=colour)
    for marker in series.plot.markers:
        value = series.plot.deals[marker.deal - 1][marker.seat]
        _mark(pen, box.point(marker.deal, marker.seat, value), marker.mark, 9 * k)
    _legend(pen, series, box, fonts[16], width * k)
    info = PngInfo()
    info.add_text("Title", _one_line(series.title))
    info.add_text("Legend", "\n".join(_one_line(n) for n in series.names))
    out = io.BytesIO()
    image.reduce(k).save(out, format="PNG", pnginfo=info)  # 2×2 pixels → 1
    return out.getvalue()


def font_bytes() -> bytes:
    """The vendored font, as the package carries it (``importlib.resources``: from a wheel
    too)."""
    return files("bot").joinpath(FONT).read_bytes()


def _fonts(scale: int) -> dict[int, Font]:
    """The chart's font at each size it uses (keyed by the size in the picture)."""
    data = font_bytes()
    return {size: ImageFont.truetype(io.BytesIO(data), size * scale) for size in (14, 16, 22)}


def _axes(pen: ImageDraw.ImageDraw, box: Frame, series: Series, font: Font) -> None:
    """The grid, the axes with their figures, zero and the target line."""
    k = box.scale
    for value in range(box.low, box.high + 1, box.step):
        y = box.y(value)
        pen.line((box.left, y, box.right, y), fill=AXIS if value == 0 else GRID, width=k)
        pen.text((box.left - 8 * k, y), str(value), fill=INK, font=font, anchor="rm")
    every = max(1, math.ceil(box.deals / 20))  # at most about 20 figures along the x axis
    for deal in range(0, box.deals + 1, every):
        x = box.x(deal)
        pen.line((x, box.top, x, box.bottom), fill=GRID, width=k)
        pen.text((x, box.bottom + 8 * k), str(deal), fill=INK, font=font, anchor="mt")
    pen.line((box.left, box.top, box.left, box.bottom), fill=AXIS, width=k)
    pen.line((box.left, box.bottom, box.right, box.bottom), fill=AXIS, width=k)
    middle = (box.left + box.right) / 2
    pen.text((middle, box.bottom + 30 * k), series.words.deal, fill=INK, font=font, anchor="mt")
    if series.plot.target is not None:
        _dashed(pen, box.left, box.right, box.y(series.plot.target), k)


def _dashed(pen: ImageDraw.ImageDraw, left: float, right: float, y: float, k: int) -> None:
    """The target's line: dashed, grey."""
    x = left
    while x < right:
        pen.line((x, y, min(x + 6 * k, right), y), fill=AXIS, width=2 * k)
        x += 12 * k


def _mark(pen: ImageDraw.ImageDraw, at: tuple[float, float], mark: Mark, size: float) -> None:
    """A mark's shape in its colour: ▲ remise, ◆ overshoot, ★ instant win."""
    x, y = at
    colour = MARK_COLOURS[mark]
    if mark is Mark.REMISE:
        pen.regular_polygon((x, y, size), 3, fill=colour, outline=INK, width=2)
    elif mark is Mark.OVERSHOOT:
        pen.regular_polygon((x, y, size), 4, rotation=45, fill=colour, outline=INK, width=2)
    else:
        star = [
            (
                x + size * (1.3 if n % 2 == 0 else 0.55) * math.sin(n * math.pi / 5),
                y - size * (1.3 if n % 2 == 0 else 0.55) * math.cos(n * math.pi / 5),
            )
            for n in range(10)
        ]
        pen.polygon(star, fill=colour, outline=INK, width=2)


def _legend(pen: ImageDraw.ImageDraw, series: Series, box: Frame, font: Font, width: int) -> None:
    """One row a seat: its line, its name (cut with "…" to fit), its last figure; then the
    marks the chart shows."""
    k = box.scale
    left, y = box.right + 30 * k, box.top
    room = width - left - 20 * k
    for seat, shown in enumerate(_names(series, font, box, width)):
        colour = PALETTE[seat % len(PALETTE)]
        middle = y + 10 * k
        pen.line((left, middle, left + 26 * k, middle), fill=colour, width=3 * k)
        pen.ellipse((left + 9 * k, middle - 4 * k, left + 17 * k, middle + 4 * k), fill=colour)
        pen.text((left + 34 * k, middle), shown, fill=INK, font=font, anchor="lm")
        last = str(series.plot.values(seat)[-1])
        pen.text((left + room, middle), last, fill=INK, font=font, anchor="rm")
        y += 28 * k
    y += 14 * k
    marks = {m.mark for m in series.plot.markers}
    for mark in (m for m in Mark if m in marks):
        middle = y + 10 * k
        _mark(pen, (left + 13 * k, middle), mark, 8 * k)
        label = _fit(series.words.marks.get(mark, mark.value), font, room - 34 * k)
        pen.text((left + 34 * k, middle), label, fill=INK, font=font, anchor="lm")
        y += 28 * k
    if series.plot.target is not None and series.plot.target_words:
        middle = y + 10 * k
        _dashed(pen, left, left + 26 * k, middle, k)
        label = _fit(series.plot.target_words, font, room - 34 * k)
        pen.text((left + 34 * k, middle), label, fill=INK, font=font, anchor="lm")


def legend_names(series: Series, width: int = WIDTH) -> tuple[str, ...]:
    """The players' names as the legend draws them: what the font has no glyph for left out,
    each cut with "…" to fit its row beside the seat's last figure."""
    k = SMOOTH
    return _names(series, _fonts(k)[16], frame(series, width, HEIGHT, k), width * k)


def _names(series: Series, font: Font, box: Frame, width: int) -> tuple[str, ...]:
    k = box.scale
    room = width - box.right - 50 * k  # the legend's row, less its line sample and the figure
    return tuple(
        _fit(_drawable(name, font), font, room - 48 * k - font.getlength(str(values[-1])))
        for name, values in ((n, series.plot.values(s)) for s, n in enumerate(series.names))
    )


def _one_line(text: str) -> str:
    """A name on one line (a name is whatever its owner typed)."""
    return " ".join(text.split())


def _drawable(text: str, font: Font) -> str:
    """The text less what the font would draw as an empty box (most emoji), invisible format
    characters and variation selectors; "?" if nothing is left."""
    missing = _glyph(font, NO_GLYPH)
    kept = "".join(
        ch
        for ch in unicodedata.normalize("NFC", _one_line(text))[:MOST_CHARACTERS]
        if unicodedata.category(ch)[0] != "C"
        and not _is_selector(ch)
        and (ch == " " or _glyph(font, ch) != missing)
    )
    return " ".join(kept.split()) or "?"


def _is_selector(ch: str) -> bool:
    code = ord(ch)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _glyph(font: Font, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(ch)
    return mask.size, bytes(mask)


def _fit(text: str, font: Font, room: float) -> str:
    """``text`` cut with "…" to at most ``room`` pixels wide."""
    if font.getlength(text) <= room:
        return text
    cut = text[:MOST_CHARACTERS]
    while cut and font.getlength(cut.rstrip() + "…") > room:
        cut = cut[:-1]
    return cut.rstrip() + "…"
