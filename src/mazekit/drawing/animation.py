"""The chase as an animation: one frame per tick, a GIF or an animated PNG (specs/chase.md).

Steps: draw the maze once with the render themes (no path, no board sprites) in a margin of
three cells, which holds the scatter targets, above a caption band; then per tick copy that
picture and stamp on it each chaser's fading trail, each chaser's target as a cross in its
colour (kept out of the band), the runner and the chasers (several on one cell share it, each
smaller), and in the band the tick and the mode, or on the last frame how the run ended.
Pillow draws the captions with its built-in bitmap font and encodes the frames, with no
metadata, so the bytes repeat.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..chasers import DEFAULT_TRAIL, Outcome, Simulation, Tick, Trails
from ..errors import ConfigError, TooLargeError
from ..model import Maze
from .png import rasterize
from .scene import MAX_PIXELS, Geometry, RenderOptions, build_scene
from .sprites import stamp
from .theme import CHASER_INKS, DEFAULT_THEME, THEMES, Ink, Palette, palette_for

__all__ = ["AnimationOptions", "caption", "frames", "render_animation"]

Pixels = npt.NDArray[np.uint8]

_TURNS = {"E": 0, "N": 1, "W": 2, "S": 3}  # quarter turns of the player, whose mouth faces E
_MARGIN_CELLS = 3
_LAST_FRAME_MS = 2000  # the result stays on screen for two seconds
_FONT_HEIGHT = 11  # Pillow's bitmap font: its lines are 11 px high
_FADES = 4  # shades of a trail, from the chaser's colour towards the background
_TRAIL_INKS = {name: len(Ink) + _FADES * i for i, name in enumerate(CHASER_INKS)}


@dataclass(frozen=True)
class AnimationOptions:
    """How the run is drawn: file format, frame rate, cell size in pixels, render theme, and
    how many of each chaser's last cells its trail shows."""

    format: Literal["gif", "png"] = "gif"
    fps: int = 8
    cell: int = 16
    theme: str = DEFAULT_THEME
    trail: int = DEFAULT_TRAIL

    def __post_init__(self) -> None:
        if self.format not in ("gif", "png"):
            raise ConfigError(f"unknown format {self.format!r} (known: gif, png)", "format")
        if not 1 <= self.fps <= 50:
            raise ConfigError(f"must be 1 to 50, got {self.fps}", "fps")
        if self.cell < 4:
            raise ConfigError(f"must be at least 4, got {self.cell}", "cell")
        if self.theme not in THEMES:
            raise ConfigError(f"unknown theme {self.theme!r} (known: {', '.join(THEMES)})", "theme")
        if self.trail < 0:
            raise ConfigError(f"must not be negative, got {self.trail}", "trail")


def caption(tick: Tick, outcome: Outcome | None) -> str:
    """The band's text: ``tick 37 · CHASE`` (``tick 0`` has no mode), or on the last tick how
    the run ended, ``caught by pinky at tick 37 at (5,4)``."""
    if outcome is not None and tick.tick == outcome.tick:
        return outcome.describe()
    return f"tick {tick.tick}" + (f" \u00b7 {tick.mode.upper()}" if tick.mode else "")


def _wall(cell: int) -> int:
    """The wall thickness of an animation: an eighth of the cell, at least 1 px."""
    return max(1, cell // 8)


def _scale(cell: int) -> int:
    """How many pixels wide a pixel of the caption font is: an eighth of the cell, at least 1."""
    return max(1, cell // 8)


@lru_cache(maxsize=256)
def _text(text: str, scale: int) -> npt.NDArray[np.bool_]:
    """``text`` in Pillow's built-in bitmap font, scaled up ``scale`` times, as a mask."""
    from PIL import Image, ImageDraw, ImageFont  # only here: only the animation needs Pillow

    font = ImageFont.load_default_imagefont()
    left, _, right, _ = font.getbbox(text)
    picture = Image.new("1", (max(1, right - left), _FONT_HEIGHT), 0)
    ImageDraw.Draw(picture).text((-left, 0), text, font=font, fill=1)
    mask = np.asarray(picture, dtype=bool)
    scaled = np.kron(mask, np.ones((scale, scale), dtype=bool))
    return np.asarray(scaled, dtype=bool)


def _cross(side: int) -> npt.NDArray[np.bool_]:
    """An x filling a ``side`` px square, its strokes about side/8 px thick."""
    ys, xs = np.mgrid[0:side, 0:side]
    thickness = max(1, side // 8)
    return np.asarray(
        (np.abs(xs - ys) < thickness) | (np.abs(xs + ys - (side - 1)) < thickness), dtype=bool
    )


@dataclass(frozen=True)
class _Layout:
    """Where things go in a frame: the maze picture (with its margin) at ``left``, the caption
    band under it; the frame is wide enough for the longest caption."""

    geometry: Geometry
    width: int
    height: int
    left: int
    band: int  # the first row of the caption band
    scale: int

    @classmethod
    def of(cls, maze: Maze, cell: int, longest: int) -> _Layout:
        """The layout of ``maze`` at ``cell`` px with room for a caption ``longest`` px wide
        at scale 1."""
        geometry = Geometry(maze.width, maze.height, cell, _wall(cell), _MARGIN_CELLS * cell)
        scale = _scale(cell)
        pad = max(2, cell // 4)
        width = max(geometry.width, longest * scale + 2 * pad)
        band_height = _FONT_HEIGHT * scale + 2 * pad
        left = (width - geometry.width) // 2
        return cls(geometry, width, geometry.height + band_height, left, geometry.height, scale)


def _captions_width(outcome: Outcome) -> int:
    """The widest caption of a run ending in ``outcome``, in px at scale 1."""
    texts = (outcome.describe(), f"tick {outcome.tick} \u00b7 SCATTER")
    return max(int(_text(text, 1).shape[1]) for text in texts)


def _palette(theme: str) -> Palette:
    """The theme's inks, then each chaser's trail shades, faded towards the background."""
    inks = palette_for(theme)
    background = np.asarray(inks[Ink.BACKGROUND], dtype=np.float64)
    shades = list(inks)
    for ink in CHASER_INKS.values():
        colour = np.asarray(inks[ink], dtype=np.float64)
        for level in range(_FADES):
            strength = 0.7 * (1 - level / _FADES)  # newest 0.7 of the way, oldest 0.175
            mixed = np.rint(background + strength * (colour - background))
            red, green, blue = (int(v) for v in mixed)
            shades.append((red, green, blue))
    return tuple(shades)


class _Painter:
    """The frame of a tick: the maze drawn once, then the moving parts stamped on a copy."""

    def __init__(self, maze: Maze, options: AnimationOptions, layout: _Layout) -> None:
        g = layout.geometry
        render = RenderOptions(
            format="png",
            cell=g.cell,
            wall=g.wall,
            margin=g.margin,
            theme=options.theme,
            path=False,
        )
        scene = replace(build_scene(maze, render), sprites=None)
        self.base = np.zeros((layout.height, layout.width), dtype=np.uint8)
        self.base[: g.height, layout.left : layout.left + g.width] = rasterize(scene)
        self.layout = layout
        self.cell, self.wall, self.margin = g.cell, g.wall, g.margin
        self.side = g.cell - g.wall
        self.cross = _cross(self.side)
        self.trails = Trails(options.trail)
        self.dot = max(1, self.side // 2)  # the side of a trail's square

    def _corner(self, x: int, y: int) -> tuple[int, int]:
        """The top-left pixel of the inside of cell (x, y), which may lie outside the grid."""
        left = self.layout.left + self.margin + x * self.cell + self.wall
        return (left, self.margin + y * self.cell + self.wall)

    def _stamp(
        self,
        frame: Pixels,
        left: int,
        top: int,
        mask: npt.NDArray[Any],
        ink: int | None,
        bottom: int | None = None,
    ) -> None:
        """Paint ``mask`` (Ink values, or True for ``ink``) at (left, top), kept inside the
        frame above row ``bottom`` (the whole frame when None)."""
        height, width = frame.shape
        height = height if bottom is None else bottom
        side_y, side_x = mask.shape
        top = min(max(top, 0), height - side_y)
        left = min(max(left, 0), width - side_x)
        target = frame[top : top + side_y, left : left + side_x]
        if ink is None:
            np.copyto(target, mask, where=mask != 0)
        else:
            target[mask.astype(bool)] = ink

    def _actors(self, frame: Pixels, tick: Tick) -> None:
        """The runner and the chasers; actors sharing a cell are drawn smaller, side by side."""
        turn = _TURNS[tick.facing]
        actors: dict[tuple[int, int], list[tuple[Ink, int]]] = {tick.runner: [(Ink.PLAYER, turn)]}
        for chaser in tick.chasers:
            actors.setdefault((chaser.x, chaser.y), []).append((CHASER_INKS[chaser.name], 0))
        for (x, y), here in actors.items():
            left, top = self._corner(x, y)
            across = 1 if len(here) == 1 else 2 if len(here) <= 4 else 3
            side = max(1, self.side // across)
            for i, (ink, turns) in enumerate(here):
                row, column = divmod(i, across)
                picture = np.rot90(stamp(ink, side), turns)
                self._stamp(frame, left + column * side, top + row * side, picture, None)

    def frame(self, tick: Tick, outcome: Outcome | None) -> Pixels:
        """The picture of one tick, as Ink values."""
        frame = self.base.copy()
        band = self.layout.band
        self.trails.add(tick)
        size = self.dot
        offset = (self.side - size) // 2
        for chaser in reversed(tick.chasers):  # blinky's trail on top
            cells = self.trails.cells(chaser.name)
            for i, (x, y) in enumerate(cells):  # oldest first: a newer cell paints over it
                level = (len(cells) - 1 - i) * _FADES // len(cells)
                left, top = self._corner(x, y)
                top, left = top + offset, left + offset
                area = frame[top : top + size, left : left + size]
                free = (area == Ink.BACKGROUND) | (area >= len(Ink))  # never over a wall or "42"
                area[free] = _TRAIL_INKS[chaser.name] + level
        for chaser in tick.chasers:
            if chaser.target is not None:
                left, top = self._corner(*chaser.target)
                ink = CHASER_INKS[chaser.name]
                self._stamp(frame, left, top, self.cross, ink, bottom=band)
        self._actors(frame, tick)
        words = _text(caption(tick, outcome), self.layout.scale)
        pad = (frame.shape[0] - band - words.shape[0]) // 2
        left = (frame.shape[1] - words.shape[1]) // 2
        self._stamp(frame, left, band + pad, words, Ink.WALL)
        return frame


def frames(
    maze: Maze, simulation: Simulation, options: AnimationOptions
) -> tuple[int, Iterator[Pixels]]:
    """How many frames the run from the simulation's current tick to its end makes, and the
    frames themselves, drawn lazily as Ink arrays.

    TooLargeError, before any drawing, when the frames would hold more than MAX_PIXELS pixels.
    """
    outcome = Simulation(maze, simulation.options).run()
    count = outcome.tick - simulation.tick + 1
    layout = _Layout.of(maze, options.cell, _captions_width(outcome))
    width, height = layout.width, layout.height
    if width * height > MAX_PIXELS:
        raise TooLargeError(
            f"one frame of {width}x{height} px is over the limit of {MAX_PIXELS:,} pixels: "
            "use a smaller --cell"
        )
    most = MAX_PIXELS // (width * height)
    if count > most:
        raise TooLargeError(
            f"the run has {count} frames (ticks {simulation.tick} to "
            f"{simulation.tick + count - 1}), more than the {most} frames of {width}x{height} px "
            f"one animation may hold (at most {MAX_PIXELS:,} pixels in all); use --ticks "
            f"{most - 1} or less, or a smaller --cell"
        )
    painter = _Painter(maze, options, layout)
    return count, (painter.frame(tick, outcome) for tick in simulation.ticks())


def render_animation(maze: Maze, simulation: Simulation, options: AnimationOptions) -> bytes:
    """The run drawn as an animated GIF or PNG; the last frame, the result, stays for 2 s.

    GIF frames are drawn as Pillow asks for them, so only Pillow's own copies stay in memory.
    """
    from PIL import Image  # only here: only the animation needs Pillow

    palette = [channel for rgb in _palette(options.theme) for channel in rgb]

    def image(pixels: Pixels) -> Image.Image:
        picture = Image.frombuffer(
            "P", (pixels.shape[1], pixels.shape[0]), pixels, "raw", "P", 0, 1
        )
        picture.putpalette(palette)
        return picture

    count, pictures = frames(maze, simulation, options)
    step = round(1000 / options.fps)
    durations = [step] * (count - 1) + [max(step, _LAST_FRAME_MS)]
    first = image(next(pictures))
    rest = (image(pixels) for pixels in pictures)
    buffer = io.BytesIO()
    if options.format == "gif":
        first.save(
            buffer,
            format="GIF",
            save_all=True,
            append_images=rest,
            duration=durations,
            loop=0,
            optimize=False,
        )
    else:
        first.save(
            buffer,
            format="PNG",
            save_all=True,
            append_images=list(rest),  # the APNG writer walks its frames twice
            duration=durations,
            loop=0,
            default_image=False,
            compress_level=6,
        )
    return buffer.getvalue()
